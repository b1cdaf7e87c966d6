// The admin's account screens, one chunk loaded on demand for all of them.
export { AuditPage } from './audit-page';
export { DashboardPage } from './dashboard-page';
export { UserCreatePage } from './user-create-page';
export { AdminUserPage } from './user-page';
export { UsersPage } from './users-page';
