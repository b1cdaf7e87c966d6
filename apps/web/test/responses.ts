/** A JSON answer as the API sends it, for the tests' fake servers. */
export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** The API's empty answer to a write (204). */
export const noContent = () => new Response(null, { status: 204 });
