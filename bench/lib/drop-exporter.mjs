// A span exporter that drops every batch and answers success: the bench apps' `*-noexport`
// variants hand it to obs to measure everything but the export.
export const dropAll = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
