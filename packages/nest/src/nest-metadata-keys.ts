/**
 * Reflect-metadata keys Nest stores routing facts under. They are stable strings across Nest
 * 10-12, and Nest moved their exports between entry points (`@nestjs/common/constants` in 11,
 * `@nestjs/common/internal` in 12), so the values are spelled out here.
 */
export const PATH_METADATA = 'path';
export const VERSION_METADATA = '__version__';
export const MODULE_PATH = '__module_path__';
export const SSE_METADATA = '__sse__';
