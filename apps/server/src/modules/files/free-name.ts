/** `name (1).ext`, `name (2).ext`…: the first that is not taken among the names starting with `name (`. */
export async function freeName(
  name: string,
  taken: (prefix: string) => Promise<ReadonlySet<string>>,
): Promise<string> {
  const dot = name.lastIndexOf('.');
  const [base, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const names = await taken(`${base} (`);
  for (let n = 1; ; n++) {
    const candidate = `${base} (${n})${extension}`;
    if (!names.has(candidate)) return candidate;
  }
}
