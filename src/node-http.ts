// node:http for the package's ES modules, taken with process.getBuiltinModule rather than imported: an ES import
// of node:http builds its module namespace, which reads the module's lazy `WebSocket` export and so loads
// undici, tens of milliseconds of every start of a sandbox or a webhook receiver that never uses it.
import type * as Http from 'node:http';

export const http = process.getBuiltinModule('node:http') as typeof Http;
