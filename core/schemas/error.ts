import { z } from "zod";

export const ErrorBody = z
  .object({
    error: z.string(),
    url: z.url().optional(),
    retryAfter: z.int().min(0).optional(),
  })
  .meta({ id: "Error" });
export type ErrorBody = z.infer<typeof ErrorBody>;

export const Health = z.object({ ok: z.boolean() }).meta({ id: "Health" });
