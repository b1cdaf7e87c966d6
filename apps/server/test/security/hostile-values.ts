import fc from 'fast-check';

/**
 * A value too big to print: a string of `times` units (between a prefix and a suffix), an array of
 * `times` copies, or `times` levels of nesting. It prints as the expression that makes it, so a
 * shrunk counterexample stays readable, and becomes the real value only when a request is sent.
 */
export class Big {
  /** Materialized once: the same constant turns up in many cases, and building it is not the server's time. */
  private made: { json?: string; text?: string } = {};

  constructor(
    readonly kind: 'string' | 'array' | 'nesting',
    readonly unit: unknown,
    readonly times: number,
    readonly prefix = '',
    readonly suffix = '',
  ) {}

  [fc.toStringMethod](): string {
    const unit = fc.stringify(this.unit);
    if (this.kind === 'array') return `Array(${this.times}).fill(${unit})`;
    if (this.kind === 'nesting')
      return `${JSON.stringify(this.prefix)} + ${this.times} levels of ${unit} + ${JSON.stringify(this.suffix)}`;
    return `${JSON.stringify(this.prefix)} + ${unit}.repeat(${this.times}) + ${JSON.stringify(this.suffix)}`;
  }

  /** As JSON text, written without recursion so no depth is too deep to send. */
  json(): string {
    return (this.made.json ??= this.makeJson());
  }

  /** As text; a nesting of `element` is XML, `<a>` that many levels deep. */
  text(): string {
    return (this.made.text ??=
      this.kind === 'string'
        ? this.prefix + String(this.unit).repeat(this.times) + this.suffix
        : this.kind === 'nesting' && this.unit === 'element'
          ? this.prefix + '<a>'.repeat(this.times) + '</a>'.repeat(this.times) + this.suffix
          : this.json());
  }

  private makeJson(): string {
    if (this.kind === 'nesting') {
      const [open, close] = this.unit === 'object' ? ['{"a":', '}'] : ['[', ']'];
      return open.repeat(this.times) + '1' + close.repeat(this.times);
    }
    if (this.kind === 'array') return `[${Array(this.times).fill(toJson(this.unit)).join(',')}]`;
    return JSON.stringify(this.text());
  }
}

/** JSON text of a generated value, `Big` parts written out. */
export function toJson(value: unknown): string {
  if (value instanceof Big) return value.json();
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, v]) => `${JSON.stringify(key)}:${toJson(v)}`)
      .join(',')}}`;
  // JSON has no undefined, NaN or Infinity; a generated one goes out as null, as JSON.stringify would send it.
  return JSON.stringify(value) ?? 'null';
}

/** Text as it reaches a query string, a header or a form field. */
export function toText(value: unknown): string {
  if (value instanceof Big) return value.text();
  return typeof value === 'string' ? value : toJson(value);
}

/** Strings that have broken parsers, databases, file systems and renderers before. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '\u202Egnp.exe',
  'zero\u200Bwidth\u200D',
  '\uFEFFbom',
  'e\u0301\u0301\u0301\u0301',
  '\u{1D54F}\u{1F469}\u200D\u{1F469}\u200D\u{1F467}',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '.',
  '..',
  '/',
  '%',
  '%00',
  '%zz',
  '%E0%A4%A',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '\\',
  '%_%',
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  '${7*7}{{7*7}}',
  '\r\nSet-Cookie: x=y',
  '__proto__',
  'constructor',
  'NaN',
  'null',
  'all',
  '-1',
  '0',
  '1e309',
  '9'.repeat(400),
  'CON',
  'a@b',
] as const;

/**
 * Huge strings: long plain text, NUL, lone surrogates, and the e-mail shape that made a pattern
 * backtrack. Made once, so each is built (and cached) once for the whole run.
 */
export const bigString: fc.Arbitrary<Big> = fc.constantFrom(
  ...['a', '\u0000', '\uD800', '€', '\u{1F600}', '\u202E', '.', '/', '%', ' '].map(
    (unit) => new Big('string', unit, 100_000),
  ),
  new Big('string', '.', 50_000, 'a@', '@'),
);

const wrongType = fc.constantFrom<unknown>(
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -0,
  1e308,
  2 ** 53 + 1,
  '',
  [],
  {},
  [null],
  { a: null },
  'text',
);

/** Values of any shape that a field was not declared to take. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: wrongType, weight: 3 },
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: bigString, weight: 1 },
  { arbitrary: fc.constantFrom(new Big('array', 'x', 1_000), new Big('array', 'x', 100_000)), weight: 1 },
  { arbitrary: fc.constant(new Big('nesting', 'array', 5_000)), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
);

/** A path segment, already percent-encoded as it goes on the wire. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS).map(encodeSegment),
  // Malformed or dangerous encodings that no encoder would produce.
  fc.constantFrom(
    '%',
    '%zz',
    '%00',
    '%2e%2e',
    '..%2f..%2fpackage.json',
    '%ED%A0%80',
    '%C0%AE',
    '%FF',
    '%25',
    ';',
    '%3B',
    '%23',
  ),
  fc.constantFrom('a'.repeat(10_000), 'a'.repeat(100_000)),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(encodeSegment),
);

/** encodeURIComponent, except that a lone surrogate (which it refuses) goes out as its raw UTF-8 bytes. */
export function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeLoneSurrogates(text);
  }
}

function encodeLoneSurrogates(text: string): string {
  return [...text]
    .map((char) => {
      const code = char.charCodeAt(0);
      if (code < 0xd800 || code > 0xdfff || char.length === 2) return encodeURIComponent(char);
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    })
    .join('');
}
