import { notFound } from "next/navigation";
import { AppError } from "@/lib/core/errors";
import { getEndpointOrThrow } from "@/lib/domain/webhooks/endpoints";

/** The endpoint of a path segment (without its secret), or the not-found page. */
export async function findEndpoint(id: string): Promise<{ id: string; url: string; enabled: boolean }> {
  try {
    const { id: endpointId, url, enabled } = await getEndpointOrThrow(id);
    return { id: endpointId, url, enabled };
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
}
