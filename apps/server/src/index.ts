/** Public entry of @rarelens/server, for tools that start the server in-process (e2e, CLI). */
export { buildApp, serverVersion, type BuildAppOptions } from './app.ts';
export { ConfigError, loadConfig, type Config } from './env.ts';
export { createDatabase, type Database, type Db, type Executor } from './db/database.ts';
export { createMailer, type Mailer, type MailMessage } from './mail/mailer.ts';
export { AppError, Errors } from './errors.ts';
export { createOrdersServiceFor } from './modules/orders/orders.module.ts';
