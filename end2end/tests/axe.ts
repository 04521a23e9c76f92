import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/** What axe-core finds wrong on the page (or only inside `scope`, a CSS
 *  selector) by its default rules, WCAG 2 A/AA among them: one line per rule
 *  broken, with the elements that break it, so a failure says what to fix. */
export async function violations(page: Page, scope?: string): Promise<string[]> {
  const axe = new AxeBuilder({ page });
  const result = await (scope ? axe.include(scope) : axe).analyze();
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}
