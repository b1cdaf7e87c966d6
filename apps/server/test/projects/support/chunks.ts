import { randomBytes } from 'node:crypto';
import type { TestAgent } from '../../support/agent';
import { multipartBody } from '../../files/files-harness';

/**
 * Where the chunk goes in the form: after every text field (the web client's order), or where the
 * description lists it: name, chunk, extension, is_last_chunk, path, parent_id, project_id.
 */
export type ChunkFormOrder = 'chunk-last' | 'as-described';

/** Uploads `bytes` as `name` through the project upload in chunks of `chunkSize`; returns every answer. */
export async function uploadToProject(
  agent: TestAgent,
  projectId: string,
  name: string,
  bytes: Buffer,
  chunkSize = bytes.length,
  extra: Record<string, string> = {},
  order: ChunkFormOrder = 'chunk-last',
) {
  const key = `${randomBytes(8).toString('hex')}-${name}.part`;
  const count = Math.max(1, Math.ceil(bytes.length / chunkSize));
  const answers = [];
  for (let i = 0; i < count; i++) {
    const chunk = { file: 'chunk', filename: key, data: bytes.subarray(i * chunkSize, (i + 1) * chunkSize) };
    const later = Object.entries({
      extension: name.split('.').pop() ?? '',
      is_last_chunk: i === count - 1 ? '1' : '0',
      ...extra,
      project_id: projectId,
    }).map(([field, value]) => ({ field, value }));
    const named = { field: 'name', value: name };
    const { payload, headers } = multipartBody(
      order === 'chunk-last' ? [named, ...later, chunk] : [named, chunk, ...later],
    );
    const answer = await agent.post('/api/projects/upload/chunks', payload, { headers });
    answers.push(answer);
    if (answer.statusCode >= 400) break;
  }
  return answers;
}
