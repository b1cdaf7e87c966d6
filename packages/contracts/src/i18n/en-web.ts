/** Strings of the web client (flat dotted keys). */
export const enWeb: Record<string, string> = {
  'alerts.error_confirm': "That's horrible!",
  'alerts.success_confirm': 'Awesome!',
  'popup_error.title': 'Whooops, something went wrong :(',
  'popup_error.message': 'Something went wrong and we can\u2019t continue. Please contact us.',
};
