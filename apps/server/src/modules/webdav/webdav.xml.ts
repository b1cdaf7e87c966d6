import { DOMParser, XMLSerializer, type Element, type Node } from '@xmldom/xmldom';
import type { LockScope } from './webdav.tables';

export const DAV = 'DAV:';

/** A property by its XML name. */
export interface PropertyName {
  namespace: string;
  name: string;
}

/** What a PROPFIND asks for. */
export type PropfindRequest =
  { kind: 'allprop' } | { kind: 'propname' } | { kind: 'prop'; names: PropertyName[] };

/** One instruction of a PROPPATCH, in document order; `value` is the property's content as XML. */
export type PropertyUpdate =
  { action: 'set'; property: PropertyName; value: string } | { action: 'remove'; property: PropertyName };

export interface LockRequest {
  scope: LockScope;
  /** The client's `<owner>` element as XML, or empty. */
  ownerXml: string;
}

/** A body that is not well-formed XML, or not what the method takes (400). */
export class MalformedBody extends Error {}

/**
 * How deep a body's elements may nest. WebDAV's own bodies need five levels (propertyupdate, set,
 * prop, the property, its value); the rest is for the XML a client keeps in a dead property or in a
 * lock's owner. The parser builds a tree recursively: 140,000 levels held the event loop two seconds.
 */
export const MAX_XML_DEPTH = 32;
/**
 * How many elements a body may hold: a PROPFIND names a few dozen properties, a PROPPATCH sets at
 * most 64 (PROPERTY_LIMITS). Parsing 15,000 sibling elements took the event loop a quarter second.
 */
export const MAX_XML_ELEMENTS = 2048;

/**
 * Refuses a body whose elements nest past MAX_XML_DEPTH or number more than MAX_XML_ELEMENTS, or
 * that declares a document type, in one linear pass over the text before the parser sees it. Comments, CDATA sections and processing
 * instructions are skipped whole and quoted attribute values read past, so markup inside them
 * counts for nothing; anything unterminated is refused, as the parser would refuse it.
 */
function assertBounded(text: string): void {
  let depth = 0;
  let count = 0;
  let at = text.indexOf('<');
  const skipPast = (end: string, from: number) => {
    const found = text.indexOf(end, from);
    if (found < 0) throw new MalformedBody('unterminated markup');
    return found + end.length;
  };
  while (at >= 0) {
    let next: number;
    if (text.startsWith('<!--', at)) next = skipPast('-->', at + 4);
    else if (text.startsWith('<![CDATA[', at)) next = skipPast(']]>', at + 9);
    else if (text.startsWith('<?', at)) next = skipPast('?>', at + 2);
    // A document type (or any other declaration): entities are the one way a body grows once parsed.
    else if (text.startsWith('<!', at)) throw new MalformedBody('document type');
    else if (text.startsWith('</', at)) {
      next = skipPast('>', at + 2);
      depth -= 1;
    } else {
      next = endOfTag(text, at + 1);
      if (++count > MAX_XML_ELEMENTS) throw new MalformedBody('too many elements');
      if (text[next - 2] !== '/' && ++depth > MAX_XML_DEPTH) throw new MalformedBody('nested too deeply');
    }
    at = text.indexOf('<', next);
  }
}

/** The index after the `>` closing a start tag, read past quoted attribute values. */
function endOfTag(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '>') return i + 1;
    if (c === '"' || c === "'") {
      const close = text.indexOf(c, i + 1);
      if (close < 0) break;
      i = close;
    }
  }
  throw new MalformedBody('unterminated tag');
}

/** Characters XML 1.0 forbids (its `Char` production), as they come in a body decoded from UTF-8. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const FORBIDDEN_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const CHARACTER_REFERENCE = /&#(?:x([0-9a-f]+)|([0-9]+));/gi;

/** Whether XML 1.0 allows this code point in a document. */
function isXmlCharacter(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/**
 * Refuses a character XML forbids, written as it is or as a reference (`&#0;`). The parser decodes
 * such references instead of refusing them, and a NUL in a dead property's value is text PostgreSQL
 * cannot store: it would fail the request with a 500 instead of a 400.
 */
function assertXmlCharacters(text: string): void {
  if (FORBIDDEN_CHARACTER.test(text)) throw new MalformedBody('a character XML does not allow');
  for (const [, hex, decimal] of text.matchAll(CHARACTER_REFERENCE)) {
    const code = hex !== undefined ? parseInt(hex, 16) : Number(decimal);
    if (!isXmlCharacter(code)) throw new MalformedBody('a reference to a character XML does not allow');
  }
}

/**
 * The body's root element. Namespaces are resolved by the parser, so `<D:prop xmlns:D="DAV:">` and
 * `<prop xmlns="DAV:">` read alike. The body is checked for depth, declarations and characters first.
 */
function parseRoot(text: string, namespace: string, localName: string): Element {
  assertBounded(text);
  assertXmlCharacters(text);
  let document;
  try {
    document = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new MalformedBody(message);
      },
    }).parseFromString(text, 'application/xml');
  } catch (error) {
    throw error instanceof MalformedBody ? error : new MalformedBody(String(error));
  }
  const root = document.documentElement;
  if (!root || root.namespaceURI !== namespace || root.localName !== localName)
    throw new MalformedBody(`expected ${localName}`);
  return root;
}

function elements(parent: Element): Element[] {
  return Array.from(parent.childNodes as ArrayLike<Node>).filter(
    (node): node is Element => node.nodeType === 1,
  );
}

function child(parent: Element, localName: string): Element | undefined {
  return elements(parent).find((element) => element.namespaceURI === DAV && element.localName === localName);
}

function nameOf(element: Element): PropertyName {
  return { namespace: element.namespaceURI ?? '', name: element.localName ?? element.nodeName };
}

/** An empty body asks for all properties. */
export function parsePropfind(text: string): PropfindRequest {
  if (text.trim() === '') return { kind: 'allprop' };
  const root = parseRoot(text, DAV, 'propfind');
  const prop = child(root, 'prop');
  if (prop) return { kind: 'prop', names: elements(prop).map(nameOf) };
  if (child(root, 'propname')) return { kind: 'propname' };
  if (child(root, 'allprop')) return { kind: 'allprop' };
  throw new MalformedBody('propfind asks for nothing');
}

export function parseProppatch(text: string): PropertyUpdate[] {
  const root = parseRoot(text, DAV, 'propertyupdate');
  const updates: PropertyUpdate[] = [];
  for (const instruction of elements(root)) {
    if (instruction.namespaceURI !== DAV || !['set', 'remove'].includes(instruction.localName ?? ''))
      continue;
    const prop = child(instruction, 'prop');
    if (!prop) throw new MalformedBody('set or remove without prop');
    for (const element of elements(prop)) {
      updates.push(
        instruction.localName === 'set'
          ? { action: 'set', property: nameOf(element), value: innerXml(element) }
          : { action: 'remove', property: nameOf(element) },
      );
    }
  }
  if (updates.length === 0) throw new MalformedBody('propertyupdate changes nothing');
  return updates;
}

/** Null for an empty body: a refresh of a lock the `If` header names. */
export function parseLockinfo(text: string): LockRequest | null {
  if (text.trim() === '') return null;
  const root = parseRoot(text, DAV, 'lockinfo');
  const scope = child(root, 'lockscope');
  const type = child(root, 'locktype');
  if (!scope || !type || !child(type, 'write')) throw new MalformedBody('lockinfo without a write lock');
  const exclusive = Boolean(child(scope, 'exclusive'));
  if (!exclusive && !child(scope, 'shared')) throw new MalformedBody('lockscope names no scope');
  const owner = child(root, 'owner');
  return { scope: exclusive ? 'exclusive' : 'shared', ownerXml: owner ? innerXml(owner) : '' };
}

/** An element's content as XML text, each child carrying the namespace declarations it needs. */
function innerXml(element: Element): string {
  const serializer = new XMLSerializer();
  return Array.from(element.childNodes as ArrayLike<Node>)
    .map((node) => serializer.serializeToString(node))
    .join('');
}
