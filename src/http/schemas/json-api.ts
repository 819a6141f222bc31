/**
 * Building blocks of the documented JSON:API documents (REFERENCE §1.6): resource identifiers,
 * relationships, top-level links and meta, and the error document. The schemas describe what
 * the presenters render; they never shape or check a response (see `openapi.ts`).
 */
import { Type, type TObject, type TSchema } from '@sinclair/typebox';

/** `{"type": <type>, "id": …}`. */
export const Identifier = (type: string, description?: string): TObject =>
  Type.Object({ type: Type.Literal(type), id: Type.String() }, description ? { description } : {});

/** A to-many relationship: `{"data": [identifiers]}`. */
export const ToMany = (type: string, description?: string): TObject =>
  Type.Object({ data: Type.Array(Identifier(type)) }, description ? { description } : {});

/** A to-one relationship: `{"data": identifier}`. */
export const ToOne = (type: string): TObject => Type.Object({ data: Identifier(type) });

/** Top-level `links`: the request URL on the public base URL, brackets unencoded. */
export const SelfLinks = Type.Object({
  self: Type.String({ description: 'The request URL on the public base URL' }),
});

/** Resource-level `links` of players and matches: `schema` is always empty. */
export const ResourceLinks = Type.Object({
  self: Type.String({ description: 'The resource URL on the public base URL' }),
  schema: Type.Literal(''),
});

/** Top-level `meta`: always an empty object. */
export const EmptyMeta = Type.Object({}, { description: 'Always `{}`' });

/** An ISO 8601 UTC time to the second (`2026-11-20T12:00:00Z`). */
export const Timestamp = (description?: string): TSchema =>
  Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$',
    ...(description ? { description } : {}),
  });

/** A success document: `data`, optionally `included`, with `links.self` and empty `meta`. */
export function SuccessDocument(
  id: string,
  members: { data: TSchema; included?: TSchema },
  options: { description: string; examples: unknown[] },
): TObject {
  return Type.Object(
    {
      data: members.data,
      ...(members.included ? { included: members.included } : {}),
      links: SelfLinks,
      meta: EmptyMeta,
    },
    { $id: id, ...options },
  );
}

/** Every error the API answers: one error object naming what went wrong. */
export const ErrorDocument = Type.Object(
  {
    errors: Type.Array(
      Type.Object({
        title: Type.String({
          description: 'The HTTP status text (`Unsupported media type` for 415)',
        }),
        detail: Type.String({ description: 'What was wrong, in words; safe to show' }),
      }),
      { minItems: 1, maxItems: 1 },
    ),
  },
  {
    $id: 'ErrorDocument',
    description: 'A JSON:API error document: `errors` instead of `data`, never with `included`.',
    examples: [{ errors: [{ title: 'Not Found', detail: "Unknown shard 'pc-xx'" }] }],
  },
);
