import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { detectFileType, extensionOf, isBlacklisted } from '../../src/modules/files/file-type.detector';

const png = () =>
  sharp({ create: { width: 4, height: 4, channels: 3, background: '#f00' } })
    .png()
    .toBuffer();
// The head of a Windows executable: the DOS stub's "MZ" magic.
const exeHead = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]);

describe('detectFileType', () => {
  it('trusts the bytes over the name', async () => {
    expect(await detectFileType(await png(), 'notes.txt')).toEqual({
      mimetype: 'image/png',
      extension: 'png',
    });
    expect(await detectFileType(exeHead, 'holiday.jpg')).toEqual({
      mimetype: 'application/x-msdownload',
      extension: 'exe',
    });
    expect(await detectFileType(Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n'), 'scan')).toMatchObject({
      mimetype: 'application/pdf',
    });
  });

  it('lets the name choose among text formats only when the bytes are text', async () => {
    expect(await detectFileType(Buffer.from('a,b\n1,2\n'), 'table.CSV')).toEqual({
      mimetype: 'text/csv',
      extension: 'csv',
    });
    expect(await detectFileType(Buffer.from('héllo wörld'), 'readme')).toEqual({
      mimetype: 'text/plain',
      extension: null,
    });
    expect(await detectFileType(Buffer.from([0, 1, 2, 3, 255, 254]), 'table.csv')).toEqual({
      mimetype: 'application/octet-stream',
      extension: 'csv',
    });
  });

  it('accepts a multi-byte character cut off at the end of the head', async () => {
    const head = Buffer.from('ok €').subarray(0, 5);
    expect((await detectFileType(head, 'a.txt')).mimetype).toBe('text/plain');
  });
});

describe('extensionOf', () => {
  it('reads a plain extension in lowercase and nothing else', () => {
    expect(extensionOf('Photo.JPG')).toBe('jpg');
    expect(extensionOf('archive.tar.gz')).toBe('gz');
    expect(extensionOf('no-extension')).toBeNull();
    expect(extensionOf('weird.ex e')).toBeNull();
  });
});

describe('isBlacklisted', () => {
  const blacklist = ['exe', '.PHP', 'application/x-sh', 'video/*'];
  it('matches extensions, full types and families, case-insensitively', () => {
    expect(isBlacklisted(blacklist, { extensions: ['EXE'] })).toBe(true);
    expect(isBlacklisted(blacklist, { extensions: [null, 'php'] })).toBe(true);
    expect(isBlacklisted(blacklist, { extensions: ['sh'], mimetype: 'application/x-sh' })).toBe(true);
    expect(isBlacklisted(blacklist, { extensions: ['mp4'], mimetype: 'video/mp4' })).toBe(true);
  });
  it('lets everything else through', () => {
    expect(isBlacklisted(blacklist, { extensions: ['png'], mimetype: 'image/png' })).toBe(false);
    expect(isBlacklisted([], { extensions: ['exe'], mimetype: 'application/x-msdownload' })).toBe(false);
    expect(isBlacklisted(['', '  '], { extensions: [null], mimetype: null })).toBe(false);
  });
});
