/** Admin-area strings (English defaults), flat dotted keys like the rest of the map. */
export const enAdmin: Record<string, string> = {
  'admin.area': 'Administration',
  'admin_nav.label': 'Administration sections',
  'admin_nav.dashboard': 'Dashboard',
  'admin_nav.users': 'Users',
  'admin_nav.plans': 'Plans',
  'admin_nav.subscriptions': 'Subscriptions',
  'admin_nav.invoices': 'Transactions',
  'admin_nav.payments': 'Payments',
  'admin_nav.pages': 'Pages',
  'admin_nav.settings': 'Settings',
  'admin_nav.languages': 'Languages',
  'admin.realtime.title': 'Realtime connection',
  'admin.realtime.explanation':
    'Live updates (notifications, upload progress, render status) reach the browser over this connection.',
  'admin.realtime.driver': 'Broadcasting driver',
  'admin.realtime.driver_off': 'Off',
  'admin.realtime.off_hint': 'Realtime is off: pages show news only when they are reloaded.',
  'admin.realtime.test_hint':
    'Sends a test event to your own browser and waits up to {{seconds}} seconds for it.',
  'admin.realtime.test': 'Test the connection',
  'admin.realtime.testing': 'Testing…',
  'admin.realtime.test_success': 'Your websocket connection was successfully established',
  'admin.realtime.test_failure': "Your websocket connection wasn't established",
};
