export { startHttpServer, type HttpServer, type HttpServerOptions } from './http-server.ts';
