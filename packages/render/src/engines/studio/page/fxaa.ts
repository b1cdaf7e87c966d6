/**
 * FXAA (NVIDIA's, as Jasper Flick's version that three.js ships, with the four diagonal
 * neighbours fetched only at an edge) as a GLSL function for a pass that composites a layer:
 * `fxaa(source, p, under)` returns the premultiplied layer `source` at pixel `p` smoothed
 * along its edges, judged by its luminance laid over a background of luminance `under` (the
 * background changes slowly, so each neighbour's is taken to be this pixel's). The turntable draws
 * the model single-sampled and smooths it so where it lays it over the backdrop, instead of 4×
 * MSAA, which costs SwiftShader about a fifth of a frame (four samples per pixel rasterised and
 * resolved); most pixels leave after the first test.
 */
export const FXAA_GLSL = `
  const float FXAA_CONTRAST = 0.0312;
  const float FXAA_RELATIVE = 0.063;
  const int FXAA_STEP_COUNT = 6;
  const float FXAA_STEPS[FXAA_STEP_COUNT] = float[FXAA_STEP_COUNT](1.0, 1.5, 2.0, 2.0, 2.0, 4.0);
  const float FXAA_GUESS = 8.0;
  float fxaaLuma(vec4 c, float under) { return dot(c.rgb, vec3(0.299, 0.587, 0.114)) + (1.0 - c.a) * under; }
  float fxaaAt(sampler2D source, ivec2 p, ivec2 last, float under) {
    return fxaaLuma(texelFetch(source, clamp(p, ivec2(0), last), 0), under);
  }
  vec4 fxaa(sampler2D source, ivec2 p, float under) {
    ivec2 last = textureSize(source, 0) - 1;
    vec2 texel = 1.0 / vec2(last + 1);
    vec4 centre = texelFetch(source, p, 0);
    float m = fxaaLuma(centre, under);
    float n = fxaaAt(source, p + ivec2(0, 1), last, under), s = fxaaAt(source, p - ivec2(0, 1), last, under);
    float e = fxaaAt(source, p + ivec2(1, 0), last, under), w = fxaaAt(source, p - ivec2(1, 0), last, under);
    float highest = max(max(max(n, e), max(s, w)), m);
    float lowest = min(min(min(n, e), min(s, w)), m);
    float contrast = highest - lowest;
    if (contrast < max(FXAA_CONTRAST, FXAA_RELATIVE * highest)) return centre;
    float ne = fxaaAt(source, p + ivec2(1, 1), last, under), nw = fxaaAt(source, p + ivec2(-1, 1), last, under);
    float se = fxaaAt(source, p + ivec2(1, -1), last, under), sw = fxaaAt(source, p + ivec2(-1, -1), last, under);

    // Sub-pixel blend: how far the centre stands out of its neighbourhood.
    float f = (2.0 * (n + e + s + w) + ne + nw + se + sw) / 12.0;
    f = smoothstep(0.0, 1.0, clamp(abs(f - m) / contrast, 0.0, 1.0));
    float pixelBlend = f * f;

    // The edge's direction, and which side of the centre it lies on.
    float horizontalEdge = abs(n + s - 2.0 * m) * 2.0 + abs(ne + se - 2.0 * e) + abs(nw + sw - 2.0 * w);
    float verticalEdge = abs(e + w - 2.0 * m) * 2.0 + abs(ne + nw - 2.0 * n) + abs(se + sw - 2.0 * s);
    bool horizontal = horizontalEdge >= verticalEdge;
    float positive = horizontal ? n : e, negative = horizontal ? s : w;
    float pixelStep = horizontal ? texel.y : texel.x;
    float opposite = positive, gradient = abs(positive - m);
    if (gradient < abs(negative - m)) {
      pixelStep = -pixelStep;
      opposite = negative;
      gradient = abs(negative - m);
    }

    // Walk along the edge both ways to its ends (between texels, so each read averages both sides);
    // the nearer end says how far to blend across it.
    vec2 uv = (vec2(p) + 0.5) * texel;
    vec2 uvEdge = uv + (horizontal ? vec2(0.0, 0.5 * pixelStep) : vec2(0.5 * pixelStep, 0.0));
    vec2 along = horizontal ? vec2(texel.x, 0.0) : vec2(0.0, texel.y);
    float edgeLuma = 0.5 * (m + opposite);
    float threshold = 0.25 * gradient;
    vec2 puv = uvEdge + along * FXAA_STEPS[0];
    float pDelta = fxaaLuma(texture(source, puv), under) - edgeLuma;
    bool pEnd = abs(pDelta) >= threshold;
    for (int i = 1; i < FXAA_STEP_COUNT && !pEnd; i++) {
      puv += along * FXAA_STEPS[i];
      pDelta = fxaaLuma(texture(source, puv), under) - edgeLuma;
      pEnd = abs(pDelta) >= threshold;
    }
    if (!pEnd) puv += along * FXAA_GUESS;
    vec2 nuv = uvEdge - along * FXAA_STEPS[0];
    float nDelta = fxaaLuma(texture(source, nuv), under) - edgeLuma;
    bool nEnd = abs(nDelta) >= threshold;
    for (int i = 1; i < FXAA_STEP_COUNT && !nEnd; i++) {
      nuv -= along * FXAA_STEPS[i];
      nDelta = fxaaLuma(texture(source, nuv), under) - edgeLuma;
      nEnd = abs(nDelta) >= threshold;
    }
    if (!nEnd) nuv -= along * FXAA_GUESS;
    float pDistance = horizontal ? puv.x - uv.x : puv.y - uv.y;
    float nDistance = horizontal ? uv.x - nuv.x : uv.y - nuv.y;
    bool nearerSign = pDistance <= nDistance ? pDelta >= 0.0 : nDelta >= 0.0;
    float edgeBlend = nearerSign == (m - edgeLuma >= 0.0)
      ? 0.0
      : 0.5 - min(pDistance, nDistance) / (pDistance + nDistance);

    float blend = max(pixelBlend, edgeBlend);
    return texture(source, uv + (horizontal ? vec2(0.0, pixelStep) : vec2(pixelStep, 0.0)) * blend);
  }`;
