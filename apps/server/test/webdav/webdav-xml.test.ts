import { describe, expect, it } from 'vitest';
import {
  MalformedBody,
  MAX_XML_DEPTH,
  MAX_XML_ELEMENTS,
  parseLockinfo,
  parseProppatch,
  parsePropfind,
} from '../../src/modules/webdav/webdav.xml';

const patch = (value: string) =>
  `<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><Z:p xmlns:Z="urn:z">${value}</Z:p></D:prop></D:set></D:propertyupdate>`;
/** Levels of `<a>` inside the property: the body's own elements add four. */
const nested = (levels: number) => patch('<a>'.repeat(levels) + '</a>'.repeat(levels));

describe('WebDAV XML bodies', () => {
  it('takes nesting up to the limit and refuses one level more before parsing', () => {
    expect(parseProppatch(nested(MAX_XML_DEPTH - 4))).toHaveLength(1);
    expect(() => parseProppatch(nested(MAX_XML_DEPTH - 3))).toThrow(MalformedBody);
  });

  it('refuses 140,000 nested elements in the scan before parsing, not in the parser', () => {
    // The scan is linear and stops at the first level too many: its reason proves the parser never saw the body.
    expect(() => parseProppatch(nested(140_000))).toThrow(new MalformedBody('nested too deeply'));
  });

  it('refuses a body of more elements than WebDAV needs, before parsing them', () => {
    const wide = (count: number) =>
      `<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop>${'<Z:p xmlns:Z="urn:z">v</Z:p>'.repeat(count)}</D:prop></D:set></D:propertyupdate>`;
    // The body's own three elements and the properties.
    expect(parseProppatch(wide(MAX_XML_ELEMENTS - 3))).toHaveLength(MAX_XML_ELEMENTS - 3);
    expect(() => parseProppatch(wide(MAX_XML_ELEMENTS - 2))).toThrow(MalformedBody);
    expect(() => parseProppatch(wide(15_000))).toThrow(new MalformedBody('too many elements'));
  });

  it('counts no element in comments, CDATA, processing instructions or attribute values', () => {
    const hidden = '<a>'.repeat(100);
    const updates = parseProppatch(
      patch(
        `<!-- ${hidden} --><![CDATA[${hidden}]]><?pi ${hidden}?><b title="${'&lt;a&gt;'.repeat(10)}" note='x>y'/>` +
          '<c/>'.repeat(100),
      ),
    );
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ action: 'set', property: { namespace: 'urn:z', name: 'p' } });
    // Siblings do not add up to depth, and a self-closing element opens no level.
    expect(parseProppatch(patch('<x><y/></x>'.repeat(1000)))).toHaveLength(1);
  });

  it('refuses a document type and entities, wherever the declaration hides', () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>';
    expect(() => parsePropfind(`${laughs}<D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>`)).toThrow(
      MalformedBody,
    );
    expect(() => parseProppatch(`${laughs}${patch('&b;')}`)).toThrow(MalformedBody);
    expect(() => parseLockinfo(`<!doctype x>${'<D:lockinfo xmlns:D="DAV:"/>'}`)).toThrow(MalformedBody);
    // An undeclared entity is not well-formed XML either.
    expect(() => parseProppatch(patch('&undeclared;'))).toThrow(MalformedBody);
  });

  it('refuses a character XML forbids, as it is or as a reference, and keeps every one it allows', () => {
    for (const value of [
      '&#0;',
      '&#x0;',
      '&#x00000;',
      '&#8;',
      '&#xB;',
      '&#xFFFE;',
      '&#x110000;',
      '\u0000',
      '\u001F',
    ])
      expect(() => parseProppatch(patch(value)), JSON.stringify(value)).toThrow(MalformedBody);
    const allowed = '&#9;&#xA;&#13;&#x20;&#xD7FF;&#xE000;&#xFFFD;&#x10000;&#x10FFFF;';
    const [update] = parseProppatch(patch(`tab\tand ${allowed}`));
    expect(update).toMatchObject({ action: 'set' });
    expect((update as { value: string }).value).toContain('\u{10FFFF}');
  });

  it('refuses unterminated comments, tags and CDATA instead of scanning past them', () => {
    for (const body of [patch('<!-- open'), patch('<![CDATA[ open'), patch('<b title="'), '<D:propfind'])
      expect(() => parseProppatch(body)).toThrow(MalformedBody);
  });
});
