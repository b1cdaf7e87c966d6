// The Khronos validator ships as compiled JavaScript without types: what the export test uses of it.
declare module 'gltf-validator' {
  export interface ValidationIssue {
    code: string;
    message: string;
    severity: number;
    pointer?: string;
  }
  export interface ValidationReport {
    issues: { numErrors: number; numWarnings: number; messages: ValidationIssue[] };
    info?: { extensionsUsed?: string[]; totalTriangleCount?: number };
  }
  export function validateBytes(
    data: Uint8Array,
    options?: { maxIssues?: number },
  ): Promise<ValidationReport>;
}
