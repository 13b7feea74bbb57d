// Entry of the analysis thread: loads engine.thread.ts through tsx in a namespace of its own, so
// the thread runs the TypeScript sources whatever loader its parent (server, worker, test) uses.
import { register } from 'tsx/esm/api';

const api = register({ namespace: 'rarelens-engine-thread' });
await api.import('./engine.thread.ts', import.meta.url);
