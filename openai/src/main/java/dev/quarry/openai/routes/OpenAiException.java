package dev.quarry.openai.routes;

/**
 * A refusal in OpenAI's own terms, for what has no Quarry error code (an unknown parameter, a
 * feature of OpenAI's that Quarry does not offer).
 */
final class OpenAiException extends RuntimeException {
  final int status;
  final String param;
  final String code;

  OpenAiException(int status, String message, String param, String code) {
    super(message, null, false, false);
    this.status = status;
    this.param = param;
    this.code = code;
  }

  static OpenAiException unknownParameter(String param) {
    return new OpenAiException(
        400, "Unknown parameter: '" + param + "'.", param, "unknown_parameter");
  }

  static OpenAiException unsupported(String param, String why) {
    return new OpenAiException(400, why, param, "unsupported_parameter");
  }

  static OpenAiException notFound(String what, String id) {
    return new OpenAiException(404, "No " + what + " found with id '" + id + "'.", null, null);
  }
}
