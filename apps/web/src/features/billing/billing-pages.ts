// The admin's plan screens, one chunk loaded on demand for all of them.
export { PlanCreatePage } from './plan-create-page';
export { PlanPage } from './plan-page';
export { PlansPage } from './plans-page';
