import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { blurRounds, contactShadowLayout } from '../src/engines/studio/page/contact-shadow';
import {
  STUDIO_LOOKS,
  domeShade,
  studioCards,
  stoneEnvironmentScene,
  studioEnvironmentScene,
  type EnvironmentPreset,
} from '../src/engines/studio/page/lighting';
import { STONE_LIGHTS, STONE_ROOM } from '../src/scene/stones';

const PRESETS: EnvironmentPreset[] = ['jewellery', 'studio', 'neutral'];

describe('studio lighting', () => {
  it('grades the dome from the floor through a dark horizon to the zenith', () => {
    for (const preset of PRESETS) {
      const look = STUDIO_LOOKS[preset];
      expect(domeShade(look, 1)).toBeCloseTo(look.top, 12);
      expect(domeShade(look, 0)).toBe(look.horizon);
      expect(domeShade(look, -1)).toBeCloseTo(look.floor, 12);
      // Darkest at the horizon, rising steadily towards either pole.
      for (let k = -10; k < 0; k++)
        expect(domeShade(look, k / 10)).toBeGreaterThan(domeShade(look, (k + 1) / 10));
      for (let k = 0; k < 10; k++)
        expect(domeShade(look, k / 10)).toBeLessThan(domeShade(look, (k + 1) / 10));
    }
    // The gain rises quickly just above the horizon (y^0.6), not linearly.
    expect(domeShade(STUDIO_LOOKS.studio, 0.5)).toBeCloseTo(0.5367, 4);
    expect(domeShade(STUDIO_LOOKS.jewellery, -0.5)).toBeCloseTo(0.7094, 4);
  });

  it('sets five softboxes and a front card per preset, the key strip brightest, and black flags only for jewellery', () => {
    const radiances = (preset: EnvironmentPreset): number[] =>
      studioCards(STUDIO_LOOKS[preset]).map((c) => Number(c.radiance.toFixed(6)));
    // Overhead, key, fill, rim, kicker, front card (then flags).
    expect(radiances('jewellery')).toEqual([9, 14, 9, 11, 5, 2, 0, 0, 0]);
    expect(radiances('studio')).toEqual([5.04, 9.8, 6.3, 7.7, 3.5, 1.4]);
    expect(radiances('neutral')).toEqual([1.35, 4.2, 2.7, 3.3, 1.5, 0.8]);
    const jewellery = studioCards(STUDIO_LOOKS.jewellery);
    // The key strip stands front left; a flag hangs behind the camera (+z) and one high on either side.
    expect(jewellery[1]).toMatchObject({ position: [-20, 8, 14], width: 7, height: 26 });
    expect(jewellery.slice(6).map((f) => f.position)).toEqual([
      [0, 9, 24],
      [-17, 16, -4],
      [18, 15, -10],
    ]);
    // The high-contrast studio is the least blurred, the even one the most.
    expect(STUDIO_LOOKS.jewellery.blur).toBeLessThan(STUDIO_LOOKS.studio.blur);
    expect(STUDIO_LOOKS.studio.blur).toBeLessThan(STUDIO_LOOKS.neutral.blur);
  });

  it('builds the studio as a shaded dome with every card facing the model', () => {
    const look = STUDIO_LOOKS.jewellery;
    const scene = studioEnvironmentScene(look);
    const [dome, ...cards] = scene.children as THREE.Mesh[];
    expect(cards).toHaveLength(9);

    const domeMaterial = dome!.material as THREE.MeshBasicMaterial;
    expect(domeMaterial.side).toBe(THREE.BackSide);
    expect(domeMaterial.vertexColors).toBe(true);
    const position = dome!.geometry.getAttribute('position');
    const color = dome!.geometry.getAttribute('color');
    for (let i = 0; i < position.count; i += 37) {
      const shade = domeShade(look, position.getY(i) / 60);
      expect(color.getX(i)).toBeCloseTo(shade, 6);
      // A touch warmer than grey: blue is 2 % down.
      expect(color.getZ(i)).toBeCloseTo(shade * 0.98, 6);
    }

    const towardsOrigin = new THREE.Vector3();
    const facing = new THREE.Vector3();
    for (const [i, card] of cards.entries()) {
      const material = card.material as THREE.MeshBasicMaterial;
      expect(material.side).toBe(THREE.DoubleSide);
      expect(material.color.r).toBeCloseTo(studioCards(look)[i]!.radiance, 12);
      towardsOrigin.copy(card.position).negate().normalize();
      card.updateMatrixWorld();
      expect(card.getWorldDirection(facing).dot(towardsOrigin)).toBeCloseTo(1, 6);
    }
  });

  it('grades the overhead box and the front card, so flat faces mirror a falloff', () => {
    for (const preset of PRESETS) {
      const [overhead] = studioEnvironmentScene(STUDIO_LOOKS[preset]).children.slice(1) as THREE.Mesh[];
      const shades = overhead!.geometry.getAttribute('color');
      const position = overhead!.geometry.getAttribute('position');
      overhead!.updateMatrixWorld();
      // Brighter towards the back (-z), 0.25 to 1.5 times the box's radiance.
      const byDepth = Array.from({ length: position.count }, (_, i) => ({
        z: new THREE.Vector3().fromBufferAttribute(position, i).applyMatrix4(overhead!.matrixWorld).z,
        shade: shades.getX(i),
      })).sort((a, b) => a.z - b.z);
      expect(byDepth[0]!.shade).toBeCloseTo(1.5, 6);
      expect(byDepth.at(-1)!.shade).toBeCloseTo(0.25, 6);
    }
    const front = studioCards(STUDIO_LOOKS.jewellery)[5]!;
    // Low in front, below the line of sight, bright at its top and nearly black at its foot.
    expect(front.position[1]).toBeLessThan(0);
    expect(front.gradient).toEqual({ low: 0.08, high: 1, towards: [0, 1, 0] });
    // Every studio has it, dimmer where the light is even.
    expect(studioCards(STUDIO_LOOKS.neutral)[5]!.radiance).toBeLessThan(front.radiance);
  });

  it('sets the stone lights around the lens, in view space, dark along the line of sight', () => {
    const scene = stoneEnvironmentScene();
    const [dome, ...lights] = scene.children as THREE.Mesh[];
    expect(lights).toHaveLength(STONE_LIGHTS.length);
    expect((dome!.geometry.getAttribute('color') as THREE.BufferAttribute).getX(0)).toBeCloseTo(
      STONE_ROOM,
      6,
    );
    const lens = new THREE.Vector3(0, 0, 1);
    for (const [i, light] of lights.entries()) {
      const [, offAxis, , radiance] = STONE_LIGHTS[i]!;
      expect(light.position.clone().normalize().angleTo(lens) * (180 / Math.PI)).toBeCloseTo(offAxis, 4);
      expect((light.material as THREE.MeshBasicMaterial).color.r).toBe(radiance);
      // No light reaches within 15° of the lens: the camera and photographer stand there.
      const half = Math.atan(STONE_LIGHTS[i]![2]) * (180 / Math.PI);
      expect(offAxis - half).toBeGreaterThan(15);
    }
  });

  it('sizes the contact shadow to the model, whatever its scale', () => {
    // A ring band 21 mm across and tall, 3 mm thick, centred on the origin.
    const ring = contactShadowLayout({ min: [-0.0105, 0, -0.0015], max: [0.0105, 0.021, 0.0015] });
    expect(ring.half).toBeCloseTo(0.01785, 9); // its reach plus 35 % of its extent
    expect(ring.falloff).toBeCloseTo(0.00525, 9); // a quarter of its height
    expect(ring.height).toBeCloseTo(0.021, 9);
    expect(ring.tightSigmaPx).toBeCloseTo(2.4094, 4);
    expect(ring.wideSigmaPx).toBeCloseTo(4.5176, 4);

    // The same shape in millimetres: a patch 1000 times larger, blurred by the same pixels.
    const scaled = contactShadowLayout({ min: [-10.5, 0, -1.5], max: [10.5, 21, 1.5] });
    expect(scaled.half / ring.half).toBeCloseTo(1000, 6);
    expect(scaled.falloff / ring.falloff).toBeCloseTo(1000, 6);
    expect(scaled.tightSigmaPx).toBeCloseTo(ring.tightSigmaPx, 9);

    // A flat plate: the falloff follows its width.
    const plate = contactShadowLayout({ min: [-0.05, 0, -0.05], max: [0.05, 0, 0.05] });
    expect(plate.height).toBe(1e-6);
    expect(plate.falloff).toBeCloseTo(0.008, 9);
    // A model off the origin widens the patch so the shadow stays on it.
    const aside = contactShadowLayout({ min: [0.04, 0, -0.01], max: [0.06, 0.02, 0.01] });
    expect(aside.half).toBeCloseTo(0.06 + 0.02 * 0.35, 9);
  });

  it('splits a wide blur into rounds of at most 1.5 px that add up to the asked sigma', () => {
    expect(blurRounds(0.8)).toEqual({ rounds: 1, radius: 0.5 });
    for (const sigma of [2.4094, 4.5176, 12]) {
      const { rounds, radius } = blurRounds(sigma);
      expect(radius).toBeLessThanOrEqual(1.5);
      expect(1.6 * radius * Math.sqrt(rounds)).toBeCloseTo(sigma, 9);
    }
    expect(blurRounds(4.5176).rounds).toBe(4);
  });
});
