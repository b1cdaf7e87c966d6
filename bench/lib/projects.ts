import { randomBytes } from 'node:crypto';
import type { BenchApp } from './atelier-app';

/** A JSON call of the signed-in user; fails unless the answer is 2xx. */
export async function post(atelier: BenchApp, path: string, body: unknown) {
  const answer = await fetch(`${atelier.url}${path}`, {
    method: 'POST',
    headers: { ...atelier.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`);
  return answer.json() as Promise<{ id?: string; data: unknown }>;
}

/** One model as the web client sends it: a single last chunk of the project upload form. */
export async function uploadModel(atelier: BenchApp, projectId: string, name: string, bytes: Uint8Array) {
  const form = new FormData();
  form.set('name', name);
  form.set('extension', 'stl');
  form.set('is_last_chunk', '1');
  form.set('project_id', projectId);
  // A copy on its own ArrayBuffer: what a Blob takes (a Node Buffer may sit on a shared pool).
  form.set('chunk', new Blob([new Uint8Array(bytes)]), `${randomBytes(8).toString('hex')}-${name}.part`);
  const answer = await fetch(`${atelier.url}/api/projects/upload/chunks`, {
    method: 'POST',
    headers: atelier.headers,
    body: form,
  });
  if (!answer.ok) throw new Error(`upload answered ${answer.status}: ${await answer.text()}`);
}
