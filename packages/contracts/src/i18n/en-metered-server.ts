/** Metered billing's messages on the server: the restriction, settlement notes and notifications. */
export const enMeteredServer: Record<string, string> = {
  'metered.restriction':
    'Your balance does not cover last period\u2019s use of {{amount}}. Top up to continue.',
  'metered.alert_not_metered': 'Billing alerts are for pay-as-you-go instances only.',
  'metered.note_settlement': '{{plan}}: use of the period',
  'notifications.insufficient_balance.title': 'Balance too low',
  'notifications.insufficient_balance.description':
    'Your balance does not cover last period\u2019s use of {{amount}}. Top up your balance to pay it.',
  'notifications.insufficient_balance_reminder.title': 'Reminder: balance too low',
  'notifications.insufficient_balance_reminder.description':
    'Last period\u2019s use of {{amount}} is still unpaid. Top up your balance, or uploads and downloads will be paused.',
  'notifications.insufficient_balance_restricted.title': 'Account paused',
  'notifications.insufficient_balance_restricted.description':
    'Last period\u2019s use of {{amount}} is still unpaid, so uploads and downloads are paused. Top up your balance to continue.',
  'notifications.billing_alert.title': 'Billing alert',
  'notifications.billing_alert.description':
    'This period\u2019s estimated cost, {{amount}}, has reached your alert of {{threshold}}.',
};
