import { logger, MASK_FAILED, type MaskFunction } from '@obs/core';

/** Applies the user's mask to one captured value; a throwing mask masks the value fully. */
export function applyMask(mask: MaskFunction | undefined, data: unknown): unknown {
  if (!mask || data === undefined) return data;
  try {
    return mask({ data });
  } catch (err) {
    logger.warnOnce('langchain-mask-threw', `CallbackHandler mask threw; values it throws on are fully masked (${String(err)})`);
    return MASK_FAILED;
  }
}
