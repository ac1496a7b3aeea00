// An error that ends the command with a one-line message and a chosen status.
export class FatalError extends Error {
  override name = "FatalError";
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}
