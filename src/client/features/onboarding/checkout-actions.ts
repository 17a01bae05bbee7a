/** What both payment modes share: registering once, and finishing the onboarding. */
export type CheckoutActions = {
  /** Registers the firm unless that already happened; false (with the error shown) when it failed. */
  registerAccount: () => Promise<boolean>;
  /** Spec 4: clears the signup data and plan, sets the completion flag, goes to /onboarding/success. */
  finish: () => void;
  pending: boolean;
  setPending: (pending: boolean) => void;
  error: string | undefined;
  setError: (error: string | undefined) => void;
};
