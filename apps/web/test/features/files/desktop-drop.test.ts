import { describe, expect, it } from 'vitest';
import { filesFromDrop, filesFromFolderInput } from '../../../src/features/files/desktop-drop';

/**
 * A desktop drop as Chromium presents it: DataTransfer items whose entries are files or
 * directories; a directory reader hands out its children in batches, then an empty batch.
 */
type Node = { name: string; content: string } | { name: string; children: Node[] };

function entryFor(node: Node, parentPath: string, batchSize: number): FileSystemEntry {
  const fullPath = `${parentPath}/${node.name}`;
  if ('content' in node) {
    return {
      name: node.name,
      fullPath,
      isFile: true,
      isDirectory: false,
      file: (resolve: (file: File) => void) => resolve(new File([node.content], node.name)),
    } as unknown as FileSystemEntry;
  }
  return {
    name: node.name,
    fullPath,
    isFile: false,
    isDirectory: true,
    createReader() {
      let offset = 0;
      return {
        readEntries(resolve: (entries: FileSystemEntry[]) => void) {
          const batch = node.children
            .slice(offset, offset + batchSize)
            .map((child) => entryFor(child, fullPath, batchSize));
          offset += batchSize;
          setTimeout(() => resolve(batch));
        },
      };
    },
  } as unknown as FileSystemEntry;
}

function drop(nodes: Node[], batchSize = 2): DataTransfer {
  const items = nodes.map((node) => ({
    kind: 'file',
    webkitGetAsEntry: () => entryFor(node, '', batchSize),
  }));
  return { items, files: [] } as unknown as DataTransfer;
}

describe('desktop drop', () => {
  it('walks dropped folders to the bottom, reading every batch, and gives each file its folder path', async () => {
    const holiday: Node = {
      name: 'Holiday',
      children: [
        { name: 'a.jpg', content: 'a' },
        { name: 'b.jpg', content: 'b' },
        { name: 'c.jpg', content: 'c' },
        { name: 'Day 2', children: [{ name: 'd.jpg', content: 'd' }] },
        { name: 'Empty', children: [] },
      ],
    };
    const sources = await filesFromDrop(drop([holiday, { name: 'loose.txt', content: 'x' }]));

    expect(sources.map((source) => [source.file.name, source.path])).toEqual([
      ['a.jpg', '/Holiday/a.jpg'],
      ['b.jpg', '/Holiday/b.jpg'],
      ['c.jpg', '/Holiday/c.jpg'],
      ['d.jpg', '/Holiday/Day 2/d.jpg'],
      ['loose.txt', undefined],
    ]);
  });

  it('falls back to the plain file list when the browser gives no entries', async () => {
    const file = new File(['x'], 'plain.txt');
    const dataTransfer = {
      items: [{ kind: 'file', webkitGetAsEntry: () => null }],
      files: [file],
    } as unknown as DataTransfer;
    expect(await filesFromDrop(dataTransfer)).toEqual([{ file }]);
  });

  it('turns a folder input selection into folder paths', () => {
    const file = new File(['x'], 'plan.pdf');
    Object.defineProperty(file, 'webkitRelativePath', { value: 'Site/Plans/plan.pdf' });
    const list = {
      length: 1,
      0: file,
      item: () => file,
      [Symbol.iterator]: [file][Symbol.iterator].bind([file]),
    } as unknown as FileList;
    expect(filesFromFolderInput(list)).toEqual([{ file, path: '/Site/Plans/plan.pdf' }]);
  });
});
