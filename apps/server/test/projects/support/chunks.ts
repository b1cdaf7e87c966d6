import { randomBytes } from 'node:crypto';
import type { TestAgent } from '../../support/agent';

/** A multipart form like the web client's chunk form: text fields first, the chunk last. */
export function chunkForm(fields: Record<string, string>, chunk: Buffer, partName: string): { body: Buffer; contentType: string } {
  const boundary = `----atelier${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="chunk"; filename="${partName}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    chunk,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Uploads `bytes` as `name` through the project upload in chunks of `chunkSize`; returns every answer. */
export async function uploadToProject(agent: TestAgent, projectId: string, name: string, bytes: Buffer, chunkSize = bytes.length, extra: Record<string, string> = {}) {
  const key = `${randomBytes(8).toString('hex')}-${name}.part`;
  const count = Math.max(1, Math.ceil(bytes.length / chunkSize));
  const answers = [];
  for (let i = 0; i < count; i++) {
    const form = chunkForm(
      { name, extension: name.split('.').pop() ?? '', is_last_chunk: i === count - 1 ? '1' : '0', project_id: projectId, ...extra },
      bytes.subarray(i * chunkSize, (i + 1) * chunkSize),
      key,
    );
    const answer = await agent.post('/api/projects/upload/chunks', form.body, { headers: { 'content-type': form.contentType } });
    answers.push(answer);
    if (answer.statusCode >= 400) break;
  }
  return answers;
}
