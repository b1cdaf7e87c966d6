import { MOCKED_FILES, webProject } from './vitest.config';

// The web tests that replace modules with vi.mock, each file in a module graph of its own.
export default webProject('web-mocked', [MOCKED_FILES], [], true);
