/** One question of the FAQs as search engines read it. */
export interface FaqJsonLdItem {
  question: string;
  /** The answer's HTML, as the page shows it (schema.org allows basic HTML in an answer's text). */
  answerHtml: string;
  /** The answer's own address (`/faqs#<anchor>`). */
  url: string;
}

/**
 * The FAQs as schema.org FAQPage JSON-LD, so search engines can show an answer with its question.
 * Serialised for an inline `<script type="application/ld+json">`: `<` is escaped, so no answer can
 * close the script element early. A data block is not run, so the pages' script policy does not
 * need to allow it.
 */
export function faqPageJsonLd(items: readonly FaqJsonLdItem[]): string {
  const data = {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: items.map((item) => ({
      '@type': 'Question',
      name: item.question,
      url: item.url,
      acceptedAnswer: { '@type': 'Answer', text: item.answerHtml.trim() },
    })),
  };
  return JSON.stringify(data).replaceAll('<', '\\u003c');
}
