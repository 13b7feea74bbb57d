/** The activity module's public surface for other modules: the recorder and a request's origin. */
export { originOf } from './activity.presenter.ts';
export type { ActivityRecorder, RequestOrigin } from './activity.service.ts';
