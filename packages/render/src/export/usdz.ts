import type { Model } from '../types';
import { boundsOf } from '../import/normalize';
import { alignedZip } from './aligned-zip';
import type { MaterialPlan } from './materials-plan';

// A USDZ for iOS AR Quick Look: one usda root layer in metres with +y up, a mesh per part bound to
// a UsdPreviewSurface material, packed stored and 64-byte aligned. Quick Look has no colourway
// switcher, so a USDZ wears one colourway (the page serves one file per colourway).

/** Quick Look blends transparent surfaces rather than refracting: a clear stone keeps some body. */
const TRANSMISSION_OPACITY = 0.6;

/** A number as usda writes it: seven significant digits for material inputs and extents. */
const num = (value: number): string => String(Number(value.toPrecision(7)));
/** Points to the micrometre (their unit is the metre), unit normals to 1/10000: the text is most of the file. */
const micrometres = (value: number): string => String(Number(value.toFixed(6)));
const tenThousandths = (value: number): string => String(Number(value.toFixed(4)));

/** Prim names are identifiers: letters, digits and underscores, not starting with a digit, unique among siblings. */
function primNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((raw) => {
    const base = raw.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(?=[0-9]|$)/, '_');
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
    taken.add(name);
    return name;
  });
}

function triples(values: ArrayLike<number>, format: (value: number) => string): string {
  const out: string[] = [];
  for (let i = 0; i < values.length; i += 3) {
    out.push(`(${format(values[i]!)}, ${format(values[i + 1]!)}, ${format(values[i + 2]!)})`);
  }
  return out.join(', ');
}

function materialText(name: string, pbr: MaterialPlan['materials'][number]['pbr']): string {
  const inputs = [
    `color3f inputs:diffuseColor = (${pbr.baseColor.map(num).join(', ')})`,
    `float inputs:metallic = ${num(pbr.metalness)}`,
    `float inputs:roughness = ${num(pbr.roughness)}`,
    'int inputs:useSpecularWorkflow = 0',
  ];
  if (pbr.transmission) {
    inputs.push(`float inputs:opacity = ${num(1 - TRANSMISSION_OPACITY * pbr.transmission)}`);
    inputs.push(`float inputs:ior = ${num(pbr.ior ?? 1.5)}`);
  }
  if (pbr.clearcoat) {
    inputs.push(`float inputs:clearcoat = ${num(pbr.clearcoat)}`, 'float inputs:clearcoatRoughness = 0.03');
  }
  return `        def Material "${name}"
        {
            token outputs:surface.connect = </Model/Materials/${name}/PreviewSurface.outputs:surface>

            def Shader "PreviewSurface"
            {
                uniform token info:id = "UsdPreviewSurface"
${inputs.map((line) => `                ${line}`).join('\n')}
                token outputs:surface
            }
        }`;
}

function meshText(name: string, part: Model['parts'][number], material: string): string {
  const { min, max } = boundsOf([part]);
  const triangles = part.indices.length / 3;
  return `    def Mesh "${name}" (
        prepend apiSchemas = ["MaterialBindingAPI"]
    )
    {
        uniform token subdivisionScheme = "none"
        uniform token orientation = "rightHanded"
        float3[] extent = [(${min.map(num).join(', ')}), (${max.map(num).join(', ')})]
        int[] faceVertexCounts = [${new Array<string>(triangles).fill('3').join(', ')}]
        int[] faceVertexIndices = [${Array.from(part.indices).join(', ')}]
        point3f[] points = [${triples(part.positions, micrometres)}]
        normal3f[] normals = [${triples(part.normals, tenThousandths)}] (
            interpolation = "vertex"
        )
        rel material:binding = </Model/Materials/${material}>
    }`;
}

/** The usda root layer: sizes in metres (metersPerUnit 1), +y up, as the Model is. */
export function usdaText(model: Model, plan: MaterialPlan): string {
  const materialNames = primNames(plan.materials.map((m) => m.name));
  const meshNames = primNames(model.parts.map((p) => p.name));
  return `#usda 1.0
(
    defaultPrim = "Model"
    metersPerUnit = 1
    upAxis = "Y"
)

def Xform "Model" (
    kind = "component"
)
{
    def Scope "Materials"
    {
${plan.materials.map((m, i) => materialText(materialNames[i]!, m.pbr)).join('\n\n')}
    }

${model.parts.map((part, p) => meshText(meshNames[p]!, part, materialNames[plan.parts[p]!.material]!)).join('\n\n')}
}
`;
}

export function writeUsdz(model: Model, plan: MaterialPlan): Uint8Array {
  return alignedZip([{ name: 'model.usda', data: new TextEncoder().encode(usdaText(model, plan)) }]);
}
