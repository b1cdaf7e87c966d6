// Worker thread of importModel: parses and normalises files one at a time, so a slow or hostile
// file can be stopped by terminating the thread and never blocks the caller's event loop.
import { parentPort } from 'node:worker_threads';
import { RenderError } from '../types';
import { modelBuffers, parseModel, type ImportRequest, type ImportResponse } from './import-pipeline';

parentPort!.on('message', ({ id, request }: { id: number; request: ImportRequest }) => {
  parseModel(request).then(
    (model) =>
      parentPort!.postMessage(
        { id, response: { ok: true, model } satisfies ImportResponse },
        modelBuffers(model),
      ),
    (error: unknown) => {
      const response: ImportResponse =
        error instanceof RenderError
          ? { ok: false, code: error.code, message: error.message }
          : { ok: false, code: 'corrupt_file', message: String((error as Error)?.message ?? error) };
      parentPort!.postMessage({ id, response });
    },
  );
});
