/**
 * Characters that show nothing yet change how the text around them reads: C0 and C1 controls, and
 * the bidirectional marks, embeddings, overrides and isolates (a U+202E turns `gpj.exe` into
 * `exe.jpg` on screen). Joiners (U+200C, U+200D) are not among them: scripts and emoji need them.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
export const HIDDEN_CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** The bidirectional controls alone, which file names keep as given and screens show escaped. */
export const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The text without its hidden controls: for names that come from elsewhere (a sign-in provider). */
export function withoutHiddenControls(text: string): string {
  return text.replace(new RegExp(HIDDEN_CONTROL.source, 'g'), '');
}
