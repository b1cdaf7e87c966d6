/** Messages the server answers billing calls with, and billing's notifications. */
export const enBillingServer: Record<string, string> = {
  'billing.driver_not_allowed': 'This payment method is not available. Choose another one.',
  'billing.driver_not_configured': 'This payment method is not set up yet. Ask the administrator.',
  'billing.plan_unavailable': 'This plan cannot be chosen. Pick one of the plans offered.',
  'billing.plan_not_registered':
    'This plan is still being set up with the payment provider. Try again in a minute.',
  'billing.already_subscribed': 'You already have a subscription. Change its plan instead.',
  'billing.no_subscription': 'You have no subscription to change.',
  'billing.swap_unsupported':
    'This payment provider cannot change a subscription\u2019s plan. Cancel it, then subscribe to the new plan when it ends.',
  'billing.metered_cancel':
    'Pay-as-you-go billing cannot be cancelled: you pay only for what you use, from your balance.',
  'billing.same_plan': 'You already have this plan.',
  'billing.not_metered': 'Balance top-ups are for pay-as-you-go instances only.',
  'billing.provider_unreachable': 'The payment provider could not be reached. Try again in a moment.',
  'billing.webhook_signature': 'The event signature is missing or wrong.',
  'billing.unknown_driver': 'Unknown payment provider.',
  'notifications.subscription_created.title': 'Subscription started',
  'notifications.subscription_created.description': 'Your {{plan}} plan is active. Thank you!',
  'notifications.gift.title': 'You received {{amount}}',
  'notifications.gift.description': '{{amount}} was added to your balance: \u201c{{note}}\u201d.',
  'notifications.payment_alert.title': 'Payment failed',
  'notifications.payment_alert.description':
    'The payment of {{amount}} for your {{plan}} plan failed. Update your payment method to keep it.',
  'notifications.payment_review.title': 'A payment needs a look',
  'notifications.payment_review.description':
    'A {{driver}} payment ({{payment}}) was not applied: {{reason}}. No balance or subscription changed.',
  'billing.review_reason.no_checkout': 'it matches no checkout made on this instance',
  'billing.review_reason.other_user': 'it names another account than the one that checked out',
  'billing.review_reason.other_purpose': 'it pays for something else than its checkout',
  'billing.review_reason.amount': 'its amount differs from its checkout',
  'billing.review_reason.currency': 'its currency differs from its checkout',
  'billing.review_reason.balance_currency': 'the balance is kept in another currency',
  'billing.review_reason.out_of_order': 'the subscription it names never arrived',
  'billing.review_reason.other_subscription':
    'it runs an ended subscription again while the account holds another one',
  'transactions.note_subscription': '{{plan}} subscription',
  'transactions.note_top_up': 'Balance top-up',
};
