/** The setup wizard's steps, in order; each page lives at /setup-wizard/{slug}. */
export const WIZARD_STEPS = [
  'status-check',
  'purchase-code',
  'database',
  'environment',
  'app-setup',
  'admin-setup',
] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

export function wizardPath(step: WizardStep) {
  return `/setup-wizard/${step}`;
}

export function nextStep(step: WizardStep): WizardStep | undefined {
  return WIZARD_STEPS[WIZARD_STEPS.indexOf(step) + 1];
}
