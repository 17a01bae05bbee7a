import type { Frequency, TaskPriority } from "./tasks";

/**
 * The curated task-template library shown in "Browse library". A firm adds a library template
 * to its own templates with `/api/template-library/{key}/add`, so `key` is part of the public
 * URL space: keep keys stable once shipped, and add new templates rather than renaming keys.
 */
export const libraryCategories = ["accounting", "legal", "consulting", "marketing", "real_estate", "general"] as const;
export type LibraryCategory = (typeof libraryCategories)[number];

export const libraryCategoryLabels: Record<LibraryCategory, string> = {
  accounting: "Accounting",
  legal: "Legal",
  consulting: "Consulting",
  marketing: "Marketing",
  real_estate: "Real estate",
  general: "General",
};

export type LibraryTemplate = {
  /** Stable kebab-case identifier, [a-z0-9-], at most 60 characters. */
  key: string;
  category: LibraryCategory;
  /** Sentence case, at most 50 characters. */
  name: string;
  /** 80 to 200 characters, ending with a period. */
  description: string;
  priority: TaskPriority;
  /** `null` means one-time work. */
  frequency: Frequency | null;
};

export const templateLibrary: readonly LibraryTemplate[] = [
  // Accounting
  {
    key: "monthly-bank-reconciliation",
    category: "accounting",
    name: "Monthly bank reconciliation",
    description:
      "Match every bank and credit card statement line to the ledger, investigate unreconciled items and save the signed reconciliation report to the client file.",
    priority: "high",
    frequency: "monthly",
  },
  {
    key: "quarterly-estimated-tax-reminder",
    category: "accounting",
    name: "Quarterly estimated tax reminder",
    description:
      "Send the client the estimated tax amount, due date and payment instructions for the quarter, then record the payment confirmation in the tax file.",
    priority: "high",
    frequency: "quarterly",
  },
  {
    key: "annual-engagement-letter-renewal",
    category: "accounting",
    name: "Annual engagement letter renewal",
    description:
      "Update scope, fees and terms for the coming year, send the engagement letter for signature and file the signed copy before any new-year work starts.",
    priority: "medium",
    frequency: "annually",
  },
  {
    key: "month-end-close-checklist",
    category: "accounting",
    name: "Month-end close checklist",
    description:
      "Post accruals, prepayments and depreciation, reconcile balance sheet accounts, lock the period and send the client the monthly financial statements pack.",
    priority: "high",
    frequency: "monthly",
  },
  {
    key: "payroll-tax-deposit-check",
    category: "accounting",
    name: "Payroll tax deposit check",
    description:
      "Confirm the taxes withheld in the latest pay run were deposited in full and on time, and note the payment confirmation number in the payroll file.",
    priority: "high",
    frequency: "weekly",
  },
  {
    key: "sales-tax-vat-return",
    category: "accounting",
    name: "Sales tax / VAT return",
    description:
      "Reconcile taxable sales and input tax to the ledger, prepare and file the sales tax / VAT return, and save the filed return and payment receipt.",
    priority: "high",
    frequency: "quarterly",
  },
  {
    key: "daily-cash-position-check",
    category: "accounting",
    name: "Daily cash position check",
    description:
      "Check bank balances against the receipts and payments expected today, and flag any shortfall or unusual transaction to the client contact by email.",
    priority: "medium",
    frequency: "daily",
  },
  {
    key: "accounts-receivable-aging-review",
    category: "accounting",
    name: "Accounts receivable aging review",
    description:
      "Go through the aged receivables report with the client, flag invoices over 60 days, agree collection actions and record write-off decisions in the notes.",
    priority: "medium",
    frequency: "monthly",
  },
  {
    key: "year-end-tax-document-request",
    category: "accounting",
    name: "Year-end tax document request",
    description:
      "Send the client a tax organizer listing the income, expense and ownership documents needed for the return, with a return-by date, and track what arrives.",
    priority: "medium",
    frequency: "annually",
  },
  {
    key: "annual-income-tax-return",
    category: "accounting",
    name: "Annual income tax return",
    description:
      "Prepare the return from the organizer and ledger, have a reviewer compare it with the prior year, and send it with a summary letter for client signature.",
    priority: "high",
    frequency: "annually",
  },
  {
    key: "contractor-payment-year-end-reporting",
    category: "accounting",
    name: "Contractor payment year-end reporting",
    description:
      "Collect tax IDs from contractors paid in the year, total payments by payee, and prepare and file the required information returns before the deadline.",
    priority: "medium",
    frequency: "annually",
  },
  {
    key: "prior-year-return-review",
    category: "accounting",
    name: "Prior-year return review for new client",
    description:
      "Obtain the last two years of returns and financial statements, note carryforwards, elections and open issues, and summarize them in a takeover memo.",
    priority: "medium",
    frequency: null,
  },

  // Legal
  {
    key: "conflict-check-new-matter",
    category: "legal",
    name: "Conflict check for new matter",
    description:
      "Search the client, adverse parties and related entities in the conflicts database, resolve any hits with the responsible partner and file the signed clearance.",
    priority: "high",
    frequency: null,
  },
  {
    key: "matter-engagement-letter",
    category: "legal",
    name: "Matter engagement letter",
    description:
      "Send the engagement letter setting out scope, fee arrangement and billing terms, and open the matter for time entry only once the signed copy is on file.",
    priority: "high",
    frequency: null,
  },
  {
    key: "daily-docket-deadline-review",
    category: "legal",
    name: "Daily docket and deadline review",
    description:
      "Review court dates, filing deadlines and limitation dates due in the next 14 days, confirm each has a responsible lawyer and update the matter calendar.",
    priority: "high",
    frequency: "daily",
  },
  {
    key: "monthly-trust-account-reconciliation",
    category: "legal",
    name: "Monthly trust account reconciliation",
    description:
      "Reconcile the trust bank statement, trust ledger and individual client ledgers three ways, resolve any difference and keep the signed report on file.",
    priority: "high",
    frequency: "monthly",
  },
  {
    key: "weekly-unbilled-time-review",
    category: "legal",
    name: "Weekly unbilled time review",
    description:
      "Review unbilled time and expense entries on each active matter, fix vague narratives, propose write-downs and release the pre-bills for partner approval.",
    priority: "medium",
    frequency: "weekly",
  },
  {
    key: "monthly-matter-status-update",
    category: "legal",
    name: "Monthly matter status update",
    description:
      "Send the client a short written update on progress, next steps, upcoming deadlines and fees billed to date, and save a copy of the letter to the matter file.",
    priority: "medium",
    frequency: "monthly",
  },
  {
    key: "litigation-hold-notice",
    category: "legal",
    name: "Litigation hold notice",
    description:
      "Send a written hold notice to the client's custodians listing the records to preserve, collect signed acknowledgments and file them with the matter.",
    priority: "high",
    frequency: null,
  },
  {
    key: "quarterly-litigation-hold-reminder",
    category: "legal",
    name: "Quarterly litigation hold reminder",
    description:
      "Re-send the preservation notice to custodians on active holds, check for leavers and role changes, and record the new acknowledgments in the matter file.",
    priority: "medium",
    frequency: "quarterly",
  },
  {
    key: "annual-entity-compliance-filing",
    category: "legal",
    name: "Annual entity compliance filing",
    description:
      "Confirm officers, directors and registered agent details, file the entity's annual report with the state or registry, and save the filing receipt.",
    priority: "high",
    frequency: "annually",
  },
  {
    key: "annual-minutes-and-resolutions",
    category: "legal",
    name: "Annual minutes and resolutions",
    description:
      "Prepare minutes or written consents for the annual shareholder and board actions, circulate them for signature and add the signed copies to the minute book.",
    priority: "medium",
    frequency: "annually",
  },
  {
    key: "trademark-renewal-watch",
    category: "legal",
    name: "Trademark renewal watch",
    description:
      "List the client's trademark renewal and proof-of-use deadlines in the next 12 months, and send the client a renewal schedule with a cost estimate.",
    priority: "medium",
    frequency: "annually",
  },
  {
    key: "estate-plan-review",
    category: "legal",
    name: "Estate plan review",
    description:
      "Ask the client about births, deaths, marriages, divorces and asset changes, review the will, powers of attorney and beneficiaries, and record any changes needed.",
    priority: "low",
    frequency: "annually",
  },
  {
    key: "matter-closing-letter",
    category: "legal",
    name: "Matter closing letter",
    description:
      "Confirm all work is complete and fees settled, send a closing letter stating what was done and what the client must do next, and archive the matter file.",
    priority: "medium",
    frequency: null,
  },

  // Consulting
  {
    key: "statement-of-work-sign-off",
    category: "consulting",
    name: "Statement of work sign-off",
    description:
      "Agree objectives, deliverables, timeline, fees and acceptance criteria with the client sponsor, and file the signed statement of work before staffing.",
    priority: "high",
    frequency: null,
  },
  {
    key: "project-kickoff-meeting",
    category: "consulting",
    name: "Project kickoff meeting",
    description:
      "Hold the kickoff with client stakeholders to confirm scope, roles, meeting cadence and data requests, and circulate the agreed notes within 24 hours.",
    priority: "high",
    frequency: null,
  },
  {
    key: "stakeholder-interview-write-up",
    category: "consulting",
    name: "Stakeholder interview write-up",
    description:
      "Write up each discovery interview within two days, capturing pain points, data sources and key quotes, and add the findings to the shared discovery log.",
    priority: "medium",
    frequency: null,
  },
  {
    key: "daily-client-stand-up",
    category: "consulting",
    name: "Daily client stand-up",
    description:
      "Run a 15-minute stand-up with the client project team on progress, blockers and the day's priorities, and update the action log straight afterwards.",
    priority: "low",
    frequency: "daily",
  },
  {
    key: "weekly-client-status-report",
    category: "consulting",
    name: "Weekly client status report",
    description:
      "Send the client sponsor a one-page status report covering progress against milestones, risks, decisions needed and the plan for next week.",
    priority: "medium",
    frequency: "weekly",
  },
  {
    key: "weekly-risk-issue-log-update",
    category: "consulting",
    name: "Weekly risk and issue log update",
    description:
      "Review each open risk and issue with its owner, update likelihood, impact and mitigation, close resolved items and escalate anything off track to the sponsor.",
    priority: "medium",
    frequency: "weekly",
  },
  {
    key: "monthly-project-budget-review",
    category: "consulting",
    name: "Monthly project budget review",
    description:
      "Compare hours and expenses to date with the project budget, forecast the cost to complete and flag any expected overrun to the engagement lead and client.",
    priority: "medium",
    frequency: "monthly",
  },
  {
    key: "retainer-hours-usage-report",
    category: "consulting",
    name: "Retainer hours usage report",
    description:
      "Report hours used against the monthly retainer, warn the client before the allowance runs out and note any carry-over or overage billing in the file.",
    priority: "medium",
    frequency: "monthly",
  },
  {
    key: "quarterly-business-review",
    category: "consulting",
    name: "Quarterly business review",
    description:
      "Prepare and present the quarterly review deck: outcomes delivered, KPIs against targets, open issues and recommendations for the next quarter.",
    priority: "high",
    frequency: "quarterly",
  },
  {
    key: "change-request-assessment",
    category: "consulting",
    name: "Change request assessment",
    description:
      "Estimate the effort, cost and schedule impact of the requested scope change, write it up as a change order and get client sign-off before starting the work.",
    priority: "medium",
    frequency: null,
  },
  {
    key: "project-close-out-lessons-learned",
    category: "consulting",
    name: "Project close-out and lessons learned",
    description:
      "Confirm all deliverables are accepted, issue the final invoice, run a lessons-learned session and archive the close-out report with the project files.",
    priority: "medium",
    frequency: null,
  },
  {
    key: "annual-account-plan-refresh",
    category: "consulting",
    name: "Annual account plan refresh",
    description:
      "Review the year's work, relationships and revenue for the client, identify next year's likely needs and update the account plan with goals and owners.",
    priority: "low",
    frequency: "annually",
  },

  // Marketing
  {
    key: "monthly-campaign-performance-report",
    category: "marketing",
    name: "Monthly campaign performance report",
    description:
      "Pull spend, reach, conversions and cost per acquisition for each channel, compare with targets and last month, and send the client a report with next steps.",
    priority: "high",
    frequency: "monthly",
  },
  {
    key: "daily-social-media-monitoring",
    category: "marketing",
    name: "Daily social media monitoring",
    description:
      "Check the client's social accounts for comments, messages and brand mentions, reply or escalate within the agreed response time and log any complaints.",
    priority: "medium",
    frequency: "daily",
  },
  {
    key: "weekly-ad-spend-pacing-check",
    category: "marketing",
    name: "Weekly ad spend pacing check",
    description:
      "Compare spend to date with each campaign's budget and flight dates, adjust bids or daily caps to stay on pace, and note every change in the campaign log.",
    priority: "high",
    frequency: "weekly",
  },
  {
    key: "monthly-content-calendar-approval",
    category: "marketing",
    name: "Monthly content calendar approval",
    description:
      "Draft next month's content calendar with topics, channels, publish dates and owners, and get written client approval before production begins.",
    priority: "medium",
    frequency: "monthly",
  },
  {
    key: "monthly-email-list-hygiene",
    category: "marketing",
    name: "Monthly email list hygiene",
    description:
      "Remove hard bounces and long-inactive contacts, process unsubscribes and consent changes, and record list size and deliverability figures for the client.",
    priority: "low",
    frequency: "monthly",
  },
  {
    key: "quarterly-seo-audit",
    category: "marketing",
    name: "Quarterly SEO audit",
    description:
      "Crawl the client site for broken links, indexing and page speed problems, review keyword rankings, and deliver a prioritized list of fixes to the client.",
    priority: "medium",
    frequency: "quarterly",
  },
  {
    key: "quarterly-marketing-strategy-review",
    category: "marketing",
    name: "Quarterly marketing strategy review",
    description:
      "Review results against the annual goals with the client, agree budget shifts and priorities for next quarter, and send the updated marketing plan.",
    priority: "high",
    frequency: "quarterly",
  },
  {
    key: "annual-marketing-plan-budget",
    category: "marketing",
    name: "Annual marketing plan and budget",
    description:
      "Build next year's plan with goals, channel mix, campaign calendar and a month-by-month budget, and present it to the client for written approval.",
    priority: "high",
    frequency: "annually",
  },
  {
    key: "brand-guidelines-review",
    category: "marketing",
    name: "Brand guidelines review",
    description:
      "Review the brand guidelines with the client team, update logos, colors, tone of voice and templates where needed, and circulate the new version to all vendors.",
    priority: "low",
    frequency: "annually",
  },
  {
    key: "creative-brief-sign-off",
    category: "marketing",
    name: "Creative brief sign-off",
    description:
      "Agree audience, key message, deliverables, formats, budget and deadlines for the campaign, and file the client-approved creative brief before work starts.",
    priority: "high",
    frequency: null,
  },
  {
    key: "campaign-launch-qa-checklist",
    category: "marketing",
    name: "Campaign launch QA checklist",
    description:
      "Before launch, test every link, tracking pixel, UTM tag, form and landing page on desktop and mobile, and record the QA sign-off in the campaign file.",
    priority: "high",
    frequency: null,
  },

  // Real estate
  {
    key: "lease-renewal-follow-up",
    category: "real_estate",
    name: "Lease renewal follow-up",
    description:
      "Contact the tenant 90 days before the lease ends, confirm renewal intent and proposed terms, and send the renewal offer or notice of non-renewal in writing.",
    priority: "high",
    frequency: null,
  },
  {
    key: "daily-new-listing-lead-review",
    category: "real_estate",
    name: "Daily new listing and lead review",
    description:
      "Review new listings that match active buyers' criteria and new inbound leads, send matches to buyers and respond to every new lead the same day.",
    priority: "medium",
    frequency: "daily",
  },
  {
    key: "weekly-seller-activity-report",
    category: "real_estate",
    name: "Weekly seller activity report",
    description:
      "Send the seller a summary of showings, online views, buyer feedback and new competing listings, with a recommendation on price or presentation.",
    priority: "medium",
    frequency: "weekly",
  },
  {
    key: "monthly-rent-roll-reconciliation",
    category: "real_estate",
    name: "Monthly rent roll reconciliation",
    description:
      "Reconcile rent received with the rent roll for each unit, chase late payers, apply late fees as the lease allows and send the owner the updated rent roll.",
    priority: "high",
    frequency: "monthly",
  },
  {
    key: "monthly-owner-statement",
    category: "real_estate",
    name: "Monthly owner statement",
    description:
      "Prepare the owner statement with the month's income, expenses, management fee and reserve balance, attach invoices and send it with the owner distribution.",
    priority: "high",
    frequency: "monthly",
  },
  {
    key: "quarterly-property-inspection",
    category: "real_estate",
    name: "Quarterly property inspection",
    description:
      "Inspect the property for maintenance, safety and lease compliance issues, take dated photos and send the owner an inspection report with repair advice.",
    priority: "medium",
    frequency: "quarterly",
  },
  {
    key: "annual-insurance-certificate-check",
    category: "real_estate",
    name: "Annual insurance certificate check",
    description:
      "Collect current certificates of insurance from tenants and vendors, check limits and additional insureds against the lease, and chase any that have lapsed.",
    priority: "medium",
    frequency: "annually",
  },
  {
    key: "property-tax-assessment-review",
    category: "real_estate",
    name: "Property tax assessment review",
    description:
      "Compare the new assessed value with recent comparable sales, advise the owner in writing whether to appeal and record the appeal deadline in the file.",
    priority: "medium",
    frequency: "annually",
  },
  {
    key: "past-client-anniversary-check-in",
    category: "real_estate",
    name: "Past client anniversary check-in",
    description:
      "Contact past buyers and sellers on their purchase anniversary with a short market update and value estimate, and log the call and any referrals.",
    priority: "low",
    frequency: "annually",
  },
  {
    key: "move-in-inspection-report",
    category: "real_estate",
    name: "Move-in inspection report",
    description:
      "Walk the unit with the tenant before move-in, record the condition of each room with dated photos, and have both parties sign the inspection report.",
    priority: "medium",
    frequency: null,
  },
  {
    key: "security-deposit-return",
    category: "real_estate",
    name: "Security deposit return",
    description:
      "After move-out, compare the unit with the move-in report, itemize deductions with receipts and send the refund and statement within the legal deadline.",
    priority: "high",
    frequency: null,
  },
  {
    key: "transaction-closing-checklist",
    category: "real_estate",
    name: "Transaction closing checklist",
    description:
      "Track inspection, appraisal, financing and title deadlines to closing, confirm every signed document is in the file and book the final walk-through.",
    priority: "high",
    frequency: null,
  },

  // General
  {
    key: "new-client-onboarding-checklist",
    category: "general",
    name: "New client onboarding checklist",
    description:
      "Verify identity, collect signed engagement documents and billing details, set up the client file and recurring tasks, and send the welcome email.",
    priority: "high",
    frequency: null,
  },
  {
    key: "daily-client-inbox-triage",
    category: "general",
    name: "Daily client inbox triage",
    description:
      "Go through new client emails, voicemails and portal messages, create or assign a task for each request and acknowledge receipt within one business day.",
    priority: "medium",
    frequency: "daily",
  },
  {
    key: "weekly-overdue-invoice-follow-up",
    category: "general",
    name: "Weekly overdue invoice follow-up",
    description:
      "Review past-due invoices, send reminders at 7, 30 and 60 days, phone clients beyond 60 days and record promised payment dates in the client notes.",
    priority: "high",
    frequency: "weekly",
  },
  {
    key: "monthly-client-invoicing",
    category: "general",
    name: "Monthly client invoicing",
    description:
      "Review the month's work in progress and retainer usage, prepare the invoice with clear line items and send it to the client with supporting time detail.",
    priority: "medium",
    frequency: "monthly",
  },
  {
    key: "quarterly-client-check-in-call",
    category: "general",
    name: "Quarterly client check-in call",
    description:
      "Call the client about changes in their business, upcoming plans and any concerns, and record the call notes and follow-up tasks in the client record.",
    priority: "low",
    frequency: "quarterly",
  },
  {
    key: "annual-client-review-meeting",
    category: "general",
    name: "Annual client review meeting",
    description:
      "Meet the client to review the past year's work, upcoming needs and satisfaction, update the service plan and send a summary of the agreed actions.",
    priority: "medium",
    frequency: "annually",
  },
  {
    key: "annual-client-due-diligence-refresh",
    category: "general",
    name: "Annual client due diligence refresh",
    description:
      "Re-verify the client's identity, ownership and contact details, screen them against sanctions lists where required and file the updated due diligence record.",
    priority: "medium",
    frequency: "annually",
  },
  {
    key: "file-retention-review",
    category: "general",
    name: "File retention review",
    description:
      "List the client's closed files that are past the retention period, get partner approval, then securely destroy or archive them and keep a signed destruction log.",
    priority: "low",
    frequency: "annually",
  },
  {
    key: "client-offboarding-checklist",
    category: "general",
    name: "Client offboarding checklist",
    description:
      "Confirm the final invoice is paid, return original documents, revoke portal access, send a disengagement letter and archive the client record.",
    priority: "medium",
    frequency: null,
  },
];

const templatesByKey: ReadonlyMap<string, LibraryTemplate> = new Map(
  templateLibrary.map((template) => [template.key, template]),
);

export function findLibraryTemplate(key: string): LibraryTemplate | undefined {
  return templatesByKey.get(key);
}
