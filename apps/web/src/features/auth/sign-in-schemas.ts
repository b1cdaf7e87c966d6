// The schemas the sign-in page checks with, imported on use: a page that imports them, or the
// contracts package as a whole, on demand would otherwise download zod with its first screen.
export { LoginBody, RecoveryCodeAnswer, SocialRedirectAnswer, TwoFactorCodeAnswer } from '@atelier/contracts';
