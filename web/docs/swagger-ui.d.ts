/** swagger-ui-dist ships no types; the reference (web/docs/reference.ts) uses its one function. */
declare module "swagger-ui-dist/swagger-ui-es-bundle.js" {
  interface SwaggerUIOptions {
    domNode: HTMLElement;
    url: string;
    deepLinking?: boolean;
    validatorUrl?: string | null;
    tryItOutEnabled?: boolean;
    defaultModelsExpandDepth?: number;
    syntaxHighlight?: { activated: boolean };
    onComplete?: () => void;
  }
  const SwaggerUI: (options: SwaggerUIOptions) => unknown;
  export default SwaggerUI;
}
