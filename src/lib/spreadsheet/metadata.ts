import { SPREADSHEET_FUNCTIONS, type SpreadsheetFunction } from './functions.ts';

/**
 * Excel's custom-functions metadata (the manifest's Metadata file, functions.json), generated from the
 * function definitions so the names, descriptions, parameters and result shapes Excel shows are the
 * ones the functions implement. The shape is Office's JSON metadata for custom functions.
 */

export interface FunctionMetadataParameter {
  name: string;
  description: string;
  type: 'string' | 'number' | 'any';
  dimensionality: 'scalar';
  optional?: true;
}

export interface FunctionMetadata {
  id: string;
  name: string;
  description: string;
  helpUrl: string;
  result: { type: 'any'; dimensionality: 'scalar' | 'matrix' };
  parameters: FunctionMetadataParameter[];
}

export interface FunctionsMetadata {
  functions: FunctionMetadata[];
}

/** The anchor of a function on the documentation page. */
export function functionAnchor(fn: Pick<SpreadsheetFunction, 'name'>): string {
  return `function-${fn.name.toLowerCase()}`;
}

/** functions.json; `helpPageUrl` is the documentation page each function links to. */
export function functionsMetadata(helpPageUrl: string): FunctionsMetadata {
  return {
    functions: SPREADSHEET_FUNCTIONS.map((fn) => ({
      id: fn.name,
      name: fn.name,
      description: fn.description,
      helpUrl: `${helpPageUrl}#${functionAnchor(fn)}`,
      result: { type: 'any', dimensionality: fn.dimensionality },
      parameters: fn.parameters.map((parameter) => ({
        name: parameter.name,
        description: parameter.description,
        type: parameter.type,
        dimensionality: 'scalar',
        ...(parameter.optional === true ? { optional: true as const } : {}),
      })),
    })),
  };
}
