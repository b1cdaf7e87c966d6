/** The settings area's screens, loaded together on first visit (they share the layout and form parts). */
export { AdsenseTab } from './adsense-tab';
export { AppearanceTab } from './appearance-tab';
export { EnvironmentTab } from './environment-tab';
export { IndexTab } from './index-tab';
export { OthersTab } from './others-tab';
export { ServerTab } from './server-tab';
export { SettingsLayout } from './settings-layout';
export { SignInTab } from './sign-in-tab';
