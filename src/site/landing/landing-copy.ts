import type { ScreenshotName } from "./screenshots";

/* The landing page's marketing copy (the LAND requirements), kept apart from its layout. */

export const comparison = {
  traditional: [
    "Built to chase new deals, not to keep the clients you already have",
    "Recurring work lives in spreadsheets, calendars and someone's memory",
    "No signal that a client relationship is slipping until they leave",
    "Weeks of setup, consultants and a sales call before anyone can log in",
    "Per-seat pricing that punishes you for adding staff",
  ],
  tendwell: [
    "Built around retention: every client has a health status you can act on",
    "Recurring work is scheduled automatically, every month, quarter and year",
    "Overdue work and at-risk clients surface on the dashboard the day they slip",
    "Sign up and start today: no demo or sales call needed",
    "Unlimited users on every plan, so the whole team works in one place",
  ],
};

export type Card = { title: string; text: string };

export const features: (Card & { icon: "health" | "repeat" | "library" | "signature" | "analytics" | "access" })[] = [
  {
    icon: "health",
    title: "Client health at a glance",
    text: "Each client is marked healthy, needs attention or at risk from real signals: overdue work, missed periods and how recently you were in touch.",
  },
  {
    icon: "repeat",
    title: "Recurring work on autopilot",
    text: "Assign a monthly close, a quarterly filing or an annual review once. Tendwell creates every next task with a real due date, on time, without reminders.",
  },
  {
    icon: "library",
    title: "A library of 50+ task templates",
    text: "Start from 50+ curated templates for accounting, legal, consulting, marketing and real estate work, then adapt them to how your firm runs.",
  },
  {
    icon: "signature",
    title: "Signed, timestamped completion",
    text: "Work is completed with a printed name and a drawn signature, stored with the time and device, so you can show exactly who did what and when.",
  },
  {
    icon: "analytics",
    title: "Retention analytics",
    text: "See completion rates, average turnaround and which clients are drifting, per person and per period, before a relationship is lost.",
  },
  {
    icon: "access",
    title: "Role-based access and audit reports",
    text: "Owners, managers and staff each see and do what their role allows, and every change is written to an audit trail you can report on.",
  },
];

export const industries: (Card & {
  icon: "accounting" | "legal" | "consulting" | "marketing" | "realEstate" | "other";
})[] = [
  {
    icon: "accounting",
    title: "Accounting and tax firms",
    text: "Monthly bookkeeping, quarterly estimates and year-end returns scheduled per client, with signed sign-offs your reviewers can trust.",
  },
  {
    icon: "legal",
    title: "Law firms",
    text: "Matter check-ins, annual compliance reviews and document deadlines tracked per client, with an audit trail of every step.",
  },
  {
    icon: "consulting",
    title: "Consulting practices",
    text: "Keep engagements on schedule with recurring status reviews and deliverables, and spot the accounts that have gone quiet.",
  },
  {
    icon: "marketing",
    title: "Marketing agencies",
    text: "Monthly reports, campaign reviews and renewals run on repeat, so retainers renew because clients see steady results.",
  },
  {
    icon: "realEstate",
    title: "Real estate offices",
    text: "Follow up with past buyers, manage landlord clients and renewals on a calendar that never forgets an anniversary.",
  },
  {
    icon: "other",
    title: "Other client-focused services",
    text: "Insurance, financial planning, HR and IT services: any firm whose revenue depends on clients staying year after year.",
  },
];

export const showcases: (Card & { id: string; image: ScreenshotName; alt: string; points: string[] })[] = [
  {
    id: "dashboard",
    image: "dashboard",
    title: "A dashboard that tells you where to look",
    text: "Start the day with the firm's pulse: how many clients are healthy, which need attention, what is overdue and how the team is completing work.",
    alt: "The Tendwell dashboard with client health counts, overdue tasks and completion rates",
    points: [
      "Health counts across every client",
      "Overdue and upcoming work in one list",
      "Completion rates by period",
    ],
  },
  {
    id: "client-management",
    image: "client-management",
    title: "Client management built for relationships",
    text: "Every client on one card: its health, the people you work with, the owner on your side and the work that is open, searchable and filterable in seconds.",
    alt: "The Tendwell clients screen with a grid of client cards showing health and open work",
    points: [
      "Search and filter by health, owner or industry",
      "Contacts and notes in one place",
      "Assign staff and templates per client",
    ],
  },
  {
    id: "task-tracking",
    image: "tasks",
    title: "Task tracking that keeps recurring work recurring",
    text: "See every task across the firm by status, due date and person. Recurring work appears on schedule, and nothing is lost between periods.",
    alt: "The Tendwell tasks screen listing pending, overdue and completed work with due dates",
    points: [
      "Pending, overdue and completed at a glance",
      "Daily to annual recurrence",
      "Priorities and assignees per task",
    ],
  },
  {
    id: "digital-signatures",
    image: "signature",
    title: "Digital signatures on completed work",
    text: "Close a task with a printed name and a signature drawn on screen. Tendwell stores it with the time and device, ready for a review or an audit.",
    alt: "Completing a task in Tendwell with a printed name and a drawn signature",
    points: [
      "Signed by the person who did the work",
      "Timestamp and device recorded",
      "Included in the audit trail and reports",
    ],
  },
];

export const benefits: (Card & {
  icon: "retention" | "deadlines" | "onboarding" | "audit" | "visibility" | "setup";
})[] = [
  {
    icon: "retention",
    title: "Keep more of your clients",
    text: "Spot slipping relationships weeks earlier and act while there is still time to fix them.",
  },
  {
    icon: "deadlines",
    title: "Stop missing deadlines",
    text: "Recurring work is created for you with real due dates, so nothing depends on memory.",
  },
  {
    icon: "onboarding",
    title: "Onboard new staff faster",
    text: "Templates carry your firm's way of working, so a new hire knows exactly what to do.",
  },
  {
    icon: "audit",
    title: "Be ready for any review",
    text: "Signed completions and a full audit trail answer who did what, and when, in seconds.",
  },
  {
    icon: "visibility",
    title: "One picture for the whole firm",
    text: "Partners, managers and staff look at the same clients and the same numbers.",
  },
  {
    icon: "setup",
    title: "Up and running this afternoon",
    text: "No consultants and no implementation project: import your clients and start.",
  },
];

export const testimonials = [
  {
    quote:
      "We used to find out a client was unhappy when they asked for their files. Now the dashboard shows us who needs a call weeks before that. We kept every one of our top twenty clients this year.",
    name: "Maria Alvarez",
    role: "Managing Partner, Alvarez & Cole CPAs",
  },
  {
    quote:
      "Annual compliance reviews for two hundred clients used to live in three spreadsheets. Tendwell schedules them on its own, and the signed completions made our last audit a non-event.",
    name: "James Whitfield",
    role: "Operations Director, Whitfield Legal",
  },
  {
    quote:
      "We signed up on a Tuesday and ran our Monday stand-up from Tendwell the next week. No demo, no onboarding calls, and the team actually likes using it.",
    name: "Priya Raman",
    role: "Founder, Northlight Marketing",
  },
] as const;
