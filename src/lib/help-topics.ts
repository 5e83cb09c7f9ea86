/**
 * The six topics the FAQs, the help center's articles and the help form's "Topic" share, in the
 * order the pages list them. One list, so a question, an article and a request about the same
 * thing always carry the same name. Plain data without a schema library: the pages and the form
 * draw from it without shipping zod.
 */
export const HELP_TOPICS = [
  { id: 'account', label: 'Account' },
  { id: 'keys', label: 'API keys' },
  { id: 'billing', label: 'Billing' },
  { id: 'data', label: 'Data' },
  { id: 'api', label: 'API' },
  { id: 'limits', label: 'Limits' },
] as const;

export type HelpTopic = (typeof HELP_TOPICS)[number]['id'];

/** The topics' ids, as a tuple the schemas (content collections, the help form) can enumerate. */
export const HELP_TOPIC_IDS = HELP_TOPICS.map((topic) => topic.id) as [HelpTopic, ...HelpTopic[]];

/** The name a reader sees for a topic. */
export function helpTopicLabel(topic: HelpTopic): string {
  return HELP_TOPICS.find((entry) => entry.id === topic)?.label ?? topic;
}

/**
 * The anchor of a question or an article: the last part of its entry id (`account/sign-up` →
 * `sign-up`), so a shared link reads as the question and survives moving it to another group.
 */
export function helpAnchor(entryId: string): string {
  return entryId.split('/').at(-1) ?? entryId;
}

/** Entries in the order of their topic, then by `order`, then alphabetically by anchor. */
export function byTopicThenOrder<T extends { id: string; data: { group: HelpTopic; order: number } }>(
  entries: readonly T[],
): T[] {
  const rank = (topic: HelpTopic): number => HELP_TOPIC_IDS.indexOf(topic);
  return entries.toSorted(
    (a, b) =>
      rank(a.data.group) - rank(b.data.group) ||
      a.data.order - b.data.order ||
      helpAnchor(a.id).localeCompare(helpAnchor(b.id)),
  );
}
