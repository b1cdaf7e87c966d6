/** Messages the server answers file calls with (flat dotted keys). */
export const enFilesServer: Record<string, string> = {
  'errors.blacklisted_type': 'Files of this type can\u2019t be uploaded.',
  'errors.upload_limit': 'This file is larger than uploads may be.',
  'errors.storage_limit_exceeded': 'There is not enough storage left for this file.',
  'errors.upload_disabled': 'Uploading is disabled for this account.',
  'errors.chunk_incomplete': 'The chunk arrived incomplete. Please send it again.',
  'errors.upload_conflict':
    'This upload was changed by another request at the same time. Please upload the file again.',
  'errors.upload_offset_mismatch':
    'This chunk does not continue the upload: the server holds its first {{received}} bytes.',
  'errors.blocks_missing':
    'Some blocks of this file are not on the server yet. Send them, then commit the file again.',
  'errors.block_hash_mismatch': 'The bytes sent do not have the SHA-256 this block is named by.',
  'errors.block_media_type': 'A block\u2019s bytes are sent as application/octet-stream.',
  'errors.create_folder_disabled': 'Creating folders is disabled for this account.',
  'errors.download_disabled': 'Downloading is disabled for this account.',
  'validation.listing_cursor':
    'This cursor does not belong to a page in this order. Ask for the first page again.',
  'validation.item_name':
    'A name can\u2019t contain slashes or control characters, nor be \u201c.\u201d or \u201c..\u201d.',
  'validation.name_too_long': 'A name can have at most 255 characters.',
  'validation.color': 'A colour is written as #rrggbb.',
  'validation.empty_file': 'Empty files can\u2019t be uploaded.',
  'validation.name_taken': 'An item named \u201c{{name}}\u201d is already in this folder.',
  'validation.move_into_itself': 'A folder can\u2019t be moved into itself or into a folder inside it.',
  'validation.unexpected_file': 'Only the chunk field may carry a file.',
  'validation.upload_offset':
    'The offset is the byte position where the chunk starts: a whole number from 0.',
  'validation.upload_path': 'The folder path of this upload contains an invalid folder name.',
  'validation.block_hash': 'A block is named by the SHA-256 of its bytes: 64 lowercase hexadecimal digits.',
  'validation.block_count': 'List between 1 and 20,000 blocks.',
  'validation.block_bytes': 'A block carries between 1 byte and 4 MiB.',
  'validation.blocks_size': 'The size is not the sum of the sizes of the blocks listed.',
  'validation.zip_items': 'List the items as id|type pairs separated by commas.',
};
