// Available to scene shaders given to setSceneShader: the size of the
// render target in pixels, and the time in seconds.
fn resolution() -> vec2f {
    return params.resolution;
}
