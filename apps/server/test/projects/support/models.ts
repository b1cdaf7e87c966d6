/** An ASCII STL of an axis-aligned box (12 triangles), in millimetres: a model every importer path accepts. */
export function boxStl(size: [number, number, number] = [20, 10, 6]): Buffer {
  const [x, y, z] = size;
  const v = (i: number): [number, number, number] => [i & 1 ? x : 0, i & 2 ? y : 0, i & 4 ? z : 0];
  // Two triangles per face, wound outwards.
  const faces: Array<[number, number, number, [number, number, number]]> = [
    [0, 2, 1, [0, 0, -1]],
    [1, 2, 3, [0, 0, -1]],
    [4, 5, 6, [0, 0, 1]],
    [5, 7, 6, [0, 0, 1]],
    [0, 1, 4, [0, -1, 0]],
    [1, 5, 4, [0, -1, 0]],
    [2, 6, 3, [0, 1, 0]],
    [3, 6, 7, [0, 1, 0]],
    [0, 4, 2, [-1, 0, 0]],
    [2, 4, 6, [-1, 0, 0]],
    [1, 3, 5, [1, 0, 0]],
    [3, 7, 5, [1, 0, 0]],
  ];
  const lines = ['solid box'];
  for (const [a, b, c, n] of faces) {
    lines.push(`  facet normal ${n.join(' ')}`, '    outer loop');
    for (const i of [a, b, c]) lines.push(`      vertex ${v(i).join(' ')}`);
    lines.push('    endloop', '  endfacet');
  }
  lines.push('endsolid box');
  return Buffer.from(lines.join('\n'));
}

/** Bytes named like a model that no importer can read. */
export function brokenStl(): Buffer {
  return Buffer.from('solid broken\n  facet normal 0 0 1\n    outer loop\n      vertex 1 2\n');
}
