import { createHash } from 'node:crypto';
import yauzl from 'yauzl';

/** Reads a zip archive into a map of entry path -> sha256 of its bytes (folders end with "/"). */
export async function zipDigests(archive: Buffer): Promise<Map<string, string>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(archive, { lazyEntries: true }, (error, file) =>
      error ? reject(error) : resolve(file),
    ),
  );
  const digests = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) {
        digests.set(entry.fileName, '');
        zip.readEntry();
        return;
      }
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const hash = createHash('sha256');
        stream.on('data', (chunk: Buffer) => hash.update(chunk));
        stream.on('error', reject);
        stream.on('end', () => {
          digests.set(entry.fileName, hash.digest('hex'));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  return digests;
}

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}
