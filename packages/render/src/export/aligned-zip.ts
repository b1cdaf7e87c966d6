import { crc32 } from 'node:zlib';

// A zip as USDZ requires: entries stored (no compression), each entry's data starting on a 64-byte
// boundary of the file (so USD can map it in place), padding carried in the local header's extra field.

const ALIGNMENT = 64;
/** An extra-field id of no registered meaning, holding only the padding. */
const PADDING_FIELD = 0x1986;
/** 1980-01-01 00:00, the earliest time zip can say: entries carry no time of their own. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

/** The entries in order (a USDZ's root layer first), stored and 64-byte aligned. */
export function alignedZip(entries: readonly ZipEntry[]): Uint8Array {
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBytes = encoder.encode(name);
    const crc = crc32(data);
    const headerEnd = offset + 30 + nameBytes.length;
    let padding = (ALIGNMENT - (headerEnd % ALIGNMENT)) % ALIGNMENT;
    // An extra field is at least its 4-byte id and size.
    if (padding > 0 && padding < 4) padding += ALIGNMENT;
    const local = new Uint8Array(30 + nameBytes.length + padding);
    const view = new DataView(local.buffer);
    view.setUint32(0, 0x04034b50, true);
    view.setUint16(4, 20, true); // version needed: 2.0
    writeCommon(view, 6, crc, data.length);
    view.setUint16(26, nameBytes.length, true);
    view.setUint16(28, padding, true);
    local.set(nameBytes, 30);
    if (padding > 0) {
      view.setUint16(30 + nameBytes.length, PADDING_FIELD, true);
      view.setUint16(32 + nameBytes.length, padding - 4, true);
    }
    const record = new Uint8Array(46 + nameBytes.length);
    const recordView = new DataView(record.buffer);
    recordView.setUint32(0, 0x02014b50, true);
    recordView.setUint16(4, 20, true); // made by: 2.0
    recordView.setUint16(6, 20, true);
    writeCommon(recordView, 8, crc, data.length);
    recordView.setUint16(28, nameBytes.length, true);
    recordView.setUint32(42, offset, true);
    record.set(nameBytes, 46);
    central.push(record);
    chunks.push(local, data);
    offset += local.length + data.length;
  }
  const centralSize = central.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(22);
  const endView = new DataView(end.buffer);
  endView.setUint32(0, 0x06054b50, true);
  endView.setUint16(8, entries.length, true);
  endView.setUint16(10, entries.length, true);
  endView.setUint32(12, centralSize, true);
  endView.setUint32(16, offset, true);
  const out = new Uint8Array(offset + centralSize + end.length);
  let at = 0;
  for (const chunk of [...chunks, ...central, end]) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** Flags, method (stored), time, date, CRC and both sizes: the same in a local header and its central record. */
function writeCommon(view: DataView, at: number, crc: number, size: number): void {
  view.setUint16(at, 0, true);
  view.setUint16(at + 2, 0, true);
  view.setUint16(at + 4, 0, true);
  view.setUint16(at + 6, DOS_DATE, true);
  view.setUint32(at + 8, crc, true);
  view.setUint32(at + 12, size, true);
  view.setUint32(at + 16, size, true);
}
