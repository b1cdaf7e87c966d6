# The Blender Cycles reference for docs/render-gallery.md: the gallery's sample scenes rendered by a
# path tracer, to set beside the draft and studio engines' stills. Run by hand where Blender is
# installed (Debian's `blender` 3.4 is enough; no GPU needed):
#
#   npx tsx docs/render-gallery/make-gallery.ts --cycles-scenes <dir>
#   blender -b -P docs/render-gallery/cycles-reference.py -- <dir> docs/render-gallery [--samples 64] [--views 2] [ring ...]
#
# make-gallery.ts writes, per category, the sample model as the importer made it (<category>.obj:
# metres, +y up, resting on y = 0) and <category>.json: each part's finish, the two still cameras
# (the poses both engines frame), the background and the studio's light set (the softboxes, graduated
# cards, black flags and gradient dome the studio engine pre-filters into its environment). This
# script builds that scene in Cycles, with a shadow catcher for the floor, renders each camera at
# 512 px and lays the result over the same background gradient as the engines:
# <category>-<n>-cycles.png.
#
# Materials: Principled BSDF with the finish's colour, metalness, roughness, clear coat and
# anisotropy (brushing around the vertical axis); stones are three glass shaders, one per colour
# channel at slightly different indices, since Cycles 3.4 has no dispersion of its own.
import json
import math
import os
import sys

import bpy
from mathutils import Matrix, Vector

# Diamond's dispersion (n at 430 nm minus n at 687 nm) spread over the three channels.
DISPERSION = 0.044
# Far enough that the cards subtend the angles of the studio's environment at infinity.
LIGHT_DISTANCE_IN_MODELS = 40
DOME_STOPS = 24


def three_to_blender(v):
    """three.js axes (+y up) to Blender's (+z up): the importer's forward -Z, up Y."""
    return Vector((v[0], -v[2], v[1]))


def parse_args():
    args = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else []
    options = {"--samples": 64, "--views": 2}
    for name in options:
        if name in args:
            at = args.index(name)
            options[name] = int(args[at + 1])
            del args[at : at + 2]
    if len(args) < 2:
        sys.exit(
            "usage: blender -b -P cycles-reference.py -- <scene dir> <out dir> [--samples n] [--views n] [category ...]"
        )
    return args[0], args[1], options["--samples"], options["--views"], args[2:]


def node_tree_of(material):
    material.use_nodes = True
    tree = material.node_tree
    for node in list(tree.nodes):
        tree.nodes.remove(node)
    output = tree.nodes.new("ShaderNodeOutputMaterial")
    return tree, output


def stone_material(name, finish):
    """Three glass shaders, red, green and blue, at indices spread by DISPERSION: fire."""
    material = bpy.data.materials.new(name)
    tree, output = node_tree_of(material)
    ior = finish.get("ior", 2.42)
    tint = finish["baseColor"]
    total = None
    for channel, shift in enumerate((-0.5, 0.0, 0.5)):
        glass = tree.nodes.new("ShaderNodeBsdfGlass")
        colour = [0.0, 0.0, 0.0, 1.0]
        colour[channel] = tint[channel]
        glass.inputs["Color"].default_value = colour
        glass.inputs["IOR"].default_value = ior + shift * DISPERSION
        glass.inputs["Roughness"].default_value = finish.get("roughness", 0.0)
        if total is None:
            total = glass.outputs["BSDF"]
        else:
            add = tree.nodes.new("ShaderNodeAddShader")
            tree.links.new(total, add.inputs[0])
            tree.links.new(glass.outputs["BSDF"], add.inputs[1])
            total = add.outputs["Shader"]
    tree.links.new(total, output.inputs["Surface"])
    return material


def surface_material(name, finish):
    material = bpy.data.materials.new(name)
    tree, output = node_tree_of(material)
    bsdf = tree.nodes.new("ShaderNodeBsdfPrincipled")
    bsdf.inputs["Base Color"].default_value = (*finish["baseColor"], 1.0)
    bsdf.inputs["Metallic"].default_value = finish["metalness"]
    bsdf.inputs["Roughness"].default_value = finish["roughness"]
    bsdf.inputs["Transmission"].default_value = finish.get("transmission", 0.0)
    bsdf.inputs["IOR"].default_value = finish.get("ior", 1.5)
    bsdf.inputs["Clearcoat"].default_value = finish.get("clearcoat", 0.0)
    bsdf.inputs["Clearcoat Roughness"].default_value = 0.03
    anisotropy = finish.get("anisotropy", 0.0)
    if anisotropy > 0:
        # Brushed around the vertical axis, as the engines brush turned and spun parts.
        bsdf.inputs["Anisotropic"].default_value = anisotropy
        tangent = tree.nodes.new("ShaderNodeTangent")
        tangent.direction_type = "RADIAL"
        tangent.axis = "Z"
        tree.links.new(tangent.outputs["Tangent"], bsdf.inputs["Tangent"])
    tree.links.new(bsdf.outputs["BSDF"], output.inputs["Surface"])
    return material


def is_stone(finish):
    return finish.get("transmission", 0) > 0 and finish["metalness"] == 0 and finish.get("ior", 1.5) > 1.7


def emission_material(name, card):
    """An emissive card of the studio's radiance, graduated from low to high along a world axis."""
    material = bpy.data.materials.new(name)
    tree, output = node_tree_of(material)
    emission = tree.nodes.new("ShaderNodeEmission")
    emission.inputs["Strength"].default_value = card["radiance"]
    gradient = card.get("gradient")
    if gradient:
        # The plane's uv runs 0..1 along its own x and y: pick the one along `towards`.
        coords = tree.nodes.new("ShaderNodeTexCoord")
        split = tree.nodes.new("ShaderNodeSeparateXYZ")
        tree.links.new(coords.outputs["UV"], split.inputs["Vector"])
        along = tree.nodes.new("ShaderNodeMapRange")
        axis, sign = card["gradientAxis"]
        tree.links.new(split.outputs["X" if axis == 0 else "Y"], along.inputs["Value"])
        low, high = gradient["low"], gradient["high"]
        along.inputs["To Min"].default_value = low if sign > 0 else high
        along.inputs["To Max"].default_value = high if sign > 0 else low
        scale = tree.nodes.new("ShaderNodeMath")
        scale.operation = "MULTIPLY"
        scale.inputs[1].default_value = card["radiance"]
        tree.links.new(along.outputs["Result"], scale.inputs[0])
        tree.links.new(scale.outputs["Value"], emission.inputs["Strength"])
    tree.links.new(emission.outputs["Emission"], output.inputs["Surface"])
    return material


def add_studio(description, extent):
    """The studio's cards as emissive planes around the model, and its dome as the world."""
    rig = bpy.data.objects.new("studio", None)
    bpy.context.scene.collection.objects.link(rig)
    # Studio units (a dome of radius 60) to metres.
    scale = LIGHT_DISTANCE_IN_MODELS * extent / 24
    intensity = description["environment"]["intensity"]
    for i, card in enumerate(description["cards"]):
        card = {**card, "radiance": card["radiance"] * intensity}
        position = Vector(card["position"])
        z = -position.normalized()
        x = Vector((0, 1, 0)).cross(z).normalized()
        y = z.cross(x)
        basis = [three_to_blender(a) for a in (x, y, z)]
        bpy.ops.mesh.primitive_plane_add(size=1)
        plane = bpy.context.active_object
        plane.name = f"card-{i}"
        rotation = Matrix((basis[0], basis[1], basis[2])).transposed().to_4x4()
        plane.matrix_world = (
            Matrix.Translation(three_to_blender(position) * scale)
            @ rotation
            @ Matrix.Diagonal((card["width"] * scale, card["height"] * scale, 1, 1))
        )
        if card.get("gradient"):
            towards = Vector(card["gradient"]["towards"]).normalized()
            dots = (x.dot(towards), y.dot(towards))
            axis = 0 if abs(dots[0]) >= abs(dots[1]) else 1
            card = {**card, "gradientAxis": (axis, 1 if dots[axis] > 0 else -1)}
        if card["radiance"] > 0:
            plane.data.materials.append(emission_material(f"card-{i}", card))
        else:
            black = bpy.data.materials.new(f"flag-{i}")
            black.diffuse_color = (0, 0, 0, 1)
            node_tree_of(black)
            plane.data.materials.append(black)
        # Lights of the studio, not things in it: they cast no shadow on the floor or the model.
        plane.visible_shadow = False
        plane.parent = rig
    world = bpy.data.worlds.new("dome")
    bpy.context.scene.world = world
    world.use_nodes = True
    tree = world.node_tree
    background = tree.nodes["Background"]
    background.inputs["Strength"].default_value = description["environment"]["intensity"]
    coords = tree.nodes.new("ShaderNodeTexCoord")
    split = tree.nodes.new("ShaderNodeSeparateXYZ")
    tree.links.new(coords.outputs["Generated"], split.inputs["Vector"])
    # The dome's grey by height, sampled into a colour ramp (-1 nadir .. 1 zenith).
    height = tree.nodes.new("ShaderNodeMapRange")
    tree.links.new(split.outputs["Z"], height.inputs["Value"])
    height.inputs["From Min"].default_value = -1
    height.inputs["From Max"].default_value = 1
    ramp = tree.nodes.new("ShaderNodeValToRGB")
    stops = description["dome"]
    elements = ramp.color_ramp.elements
    while len(elements) < len(stops):
        elements.new(0.5)
    for element, (at, shade) in zip(elements, stops):
        element.position = (at + 1) / 2
        element.color = (shade, shade, shade * 0.98, 1)
    tree.links.new(height.outputs["Result"], ramp.inputs["Fac"])
    tree.links.new(ramp.outputs["Color"], background.inputs["Color"])
    return rig


def add_floor(extent):
    bpy.ops.mesh.primitive_plane_add(size=extent * 40)
    floor = bpy.context.active_object
    floor.name = "floor"
    floor.is_shadow_catcher = True


def set_camera(pose):
    data = bpy.data.cameras.new("camera")
    data.sensor_fit = "VERTICAL"
    data.angle_y = math.radians(pose["fov"])
    data.clip_start = pose["near"]
    data.clip_end = pose["far"] * 10
    camera = bpy.data.objects.new("camera", data)
    bpy.context.scene.collection.objects.link(camera)
    axes = [three_to_blender(pose[k]) for k in ("right", "up", "back")]
    rotation = Matrix((axes[0], axes[1], axes[2])).transposed().to_4x4()
    camera.matrix_world = Matrix.Translation(three_to_blender(pose["position"])) @ rotation
    bpy.context.scene.camera = camera
    return camera


def hex_colour(text):
    text = text.lstrip("#")
    if len(text) == 3:
        text = "".join(c + c for c in text)
    return [int(text[i : i + 2], 16) / 255 for i in (0, 2, 4)]


def lay_over_background(path, background):
    """The transparent render over the engines' backdrop: a vertical smoothstep between two display colours."""
    if background["kind"] == "transparent":
        return
    if background["kind"] == "color":
        top = bottom = hex_colour(background["color"])
    else:
        top, bottom = hex_colour(background["top"]), hex_colour(background["bottom"])
    image = bpy.data.images.load(path)
    width, height = image.size
    pixels = list(image.pixels)
    for row in range(height):  # row 0 is the bottom
        t = (row + 0.5) / height
        t = t * t * (3 - 2 * t)
        back = [bottom[c] + (top[c] - bottom[c]) * t for c in range(3)]
        for col in range(width):
            o = (row * width + col) * 4
            a = pixels[o + 3]
            for c in range(3):
                pixels[o + c] = pixels[o + c] * a + back[c] * (1 - a)
            pixels[o + 3] = 1.0
    image.pixels = pixels
    image.file_format = "PNG"
    image.save()
    bpy.data.images.remove(image)


def render_category(scene_dir, out_dir, category, samples, views):
    with open(os.path.join(scene_dir, f"{category}.json")) as f:
        description = json.load(f)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    bpy.ops.wm.obj_import(
        filepath=os.path.join(scene_dir, f"{category}.obj"), forward_axis="NEGATIVE_Z", up_axis="Y"
    )
    parts = [o for o in scene.objects if o.type == "MESH"]
    for part in parts:
        finish = description["materials"][part.name]
        part.data.materials.clear()
        make = stone_material if is_stone(finish) else surface_material
        part.data.materials.append(make(part.name, finish))
    corners = [part.matrix_world @ Vector(c) for part in parts for c in part.bound_box]
    extent = max(max(c[a] for c in corners) - min(c[a] for c in corners) for a in range(3))
    rig = add_studio(description, extent)
    if description["groundShadow"]:
        add_floor(extent)

    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = samples
    scene.cycles.use_adaptive_sampling = True
    scene.cycles.use_denoising = False
    scene.cycles.max_bounces = 16
    scene.cycles.glossy_bounces = 8
    scene.cycles.transmission_bounces = 16
    scene.cycles.diffuse_bounces = 2
    scene.cycles.sample_clamp_indirect = 8
    scene.render.film_transparent = True
    scene.render.resolution_x = scene.render.resolution_y = description["size"]
    scene.render.resolution_percentage = 100
    scene.render.image_settings.file_format = "PNG"
    scene.render.image_settings.color_mode = "RGBA"
    scene.view_settings.view_transform = "Filmic"
    scene.view_settings.exposure = math.log2(description["exposure"])

    for i, pose in enumerate(description["cameras"][:views]):
        set_camera(pose)
        # The studio turns with the camera, so every view is lit from the same side.
        rig.rotation_euler = (0, 0, math.radians(pose["azimuth"]))
        path = os.path.abspath(os.path.join(out_dir, f"{category}-{i + 1}-cycles.png"))
        scene.render.filepath = path
        bpy.ops.render.render(write_still=True)
        lay_over_background(path, description["background"])
        print(f"cycles {category} {pose['name']}: {path}", flush=True)


def main():
    scene_dir, out_dir, samples, views, only = parse_args()
    categories = sorted(f[: -len(".json")] for f in os.listdir(scene_dir) if f.endswith(".json"))
    for category in categories:
        if not only or category in only:
            render_category(scene_dir, out_dir, category, samples, views)


main()
