import { AVATAR_TYPES } from '@atelier/contracts';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { assertMultipartForm } from '../modules/files/chunk-form';
import { AppError } from './app-error';

/** The image types uploads accept (avatars, the instance's logos): recognised from their bytes. */
export type ImageType = (typeof AVATAR_TYPES)[number];

/** A photo up to about 40 megapixels; a file declaring more is refused before it is decoded. */
export const MAX_INPUT_PIXELS = 40_000_000;

export interface ImageFormOptions<Field extends string> {
  /** The form's file field. */
  file: string;
  /** Text fields read beside it (each up to 1 KB). */
  fields?: readonly Field[];
  maxBytes: number;
  /** Messages for a file in another field and one over `maxBytes` (gets `{{megabytes}}`). */
  messages: { wrongField: string; tooLarge: string };
}

/**
 * One image of a multipart form, whole, with its text fields; larger than the cap is a 413 before
 * anything is decoded, and the parser's own failures (a cut-off form) are the client's 400.
 */
export async function readImageForm<Field extends string>(
  request: FastifyRequest,
  options: ImageFormOptions<Field>,
): Promise<{ image: Buffer; fields: Partial<Record<Field, string>> }> {
  assertMultipartForm(request, options.file);
  const parts = request.parts({
    limits: { files: 1, fields: 4, fieldSize: 1024, fileSize: options.maxBytes },
  });
  let image: Buffer | null = null;
  const fields: Partial<Record<Field, string>> = {};
  try {
    for await (const part of parts) {
      if (part.type !== 'file') {
        const name = options.fields?.find((f) => f === part.fieldname);
        if (name && typeof part.value === 'string') fields[name] = part.value;
        continue;
      }
      if (part.fieldname !== options.file)
        throw AppError.invalid(part.fieldname, options.messages.wrongField);
      image = await part.toBuffer();
      if (part.file.truncated)
        throw new AppError(
          'payload_too_large',
          options.messages.tooLarge,
          { [options.file]: [options.messages.tooLarge] },
          { megabytes: options.maxBytes / 1024 / 1024 },
        );
    }
  } catch (error) {
    if (error instanceof AppError || (error as { statusCode?: number }).statusCode !== undefined) throw error;
    throw new AppError('bad_request', 'errors.malformed_form');
  }
  if (!image || image.length === 0) throw AppError.invalid(options.file, 'validation.required');
  return { image, fields };
}

/** The image type its bytes show (never its name's), or a 422 on `field` for anything but png, jpeg and webp. */
export async function detectImageType(bytes: Buffer, field: string, message: string): Promise<ImageType> {
  const found = await fileTypeFromBuffer(bytes);
  const type = AVATAR_TYPES.find((allowed) => allowed === found?.mime);
  if (!type) throw AppError.invalid(field, message);
  return type;
}
