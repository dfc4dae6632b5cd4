package dev.tewheel.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.goal.Parameter;
import dev.tewheel.core.goal.Parameters;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The goals declare core's {@link Parameters}, the ones te-wheel's commands offer: each parameter a command has is a
 * parameter of its goal, with the user property {@code te.<name>} and core's default (or, where core has none, none
 * or one of the project's folders), so that the goal and the command cannot drift. Read from the plugin's own
 * descriptor, as Maven reads it.
 */
class ParametersMatchTheGoalsTest {
  /** Per goal, each parameter's {expression, default-value}. */
  private static Map<String, Map<String, String[]>> descriptor() throws Exception {
    Document document;
    try (InputStream in = ParametersMatchTheGoalsTest.class.getClassLoader()
        .getResourceAsStream("META-INF/maven/plugin.xml")) {
      assertNotNull(in, "the plugin descriptor is on the test class path");
      document = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
    }
    Map<String, Map<String, String[]>> goals = new HashMap<>();
    NodeList mojos = document.getElementsByTagName("mojo");
    for (int i = 0; i < mojos.getLength(); i++) {
      Element mojo = (Element) mojos.item(i);
      Map<String, String[]> parameters = new HashMap<>();
      Element configuration = (Element) mojo.getElementsByTagName("configuration").item(0);
      NodeList children = configuration == null ? null : configuration.getChildNodes();
      for (int j = 0; children != null && j < children.getLength(); j++) {
        Node child = children.item(j);
        if (child instanceof Element element) {
          parameters.put(element.getTagName(), new String[] {element.getTextContent().trim(),
              element.hasAttribute("default-value") ? element.getAttribute("default-value") : null});
        }
      }
      goals.put(mojo.getElementsByTagName("goal").item(0).getTextContent().trim(), parameters);
    }
    return goals;
  }

  @ParameterizedTest
  @CsvSource({"verify-wheel-lib, VERIFY_WHEEL_LIB", "diff-wheel, DIFF_WHEEL", "pack-wheel, PACK_WHEEL",
      "verify-release, VERIFY_RELEASE"})
  void eachParameterOfTheCommandIsTheGoalsWithItsPropertyAndDefault(String goal, String list) throws Exception {
    @SuppressWarnings("unchecked")
    List<Parameter> parameters = (List<Parameter>) Parameters.class.getField(list).get(null);
    Map<String, String[]> declared = descriptor().get(goal);
    assertNotNull(declared, goal);
    for (Parameter parameter : parameters) {
      String[] found = declared.get(parameter.name());
      assertNotNull(found, "te:" + goal + " declares no parameter " + parameter.name());
      assertEquals("${" + parameter.property() + "}", found[0], parameter.name());
      if (parameter.defaultValue() != null) {
        assertEquals(parameter.defaultValue(), found[1], "te:" + goal + "'s default of " + parameter.name());
      } else {
        assertTrue(found[1] == null || found[1].startsWith("${project."), "te:" + goal + " gives "
            + parameter.name() + " the default " + found[1] + ", which core's Parameters does not know");
      }
    }
  }
}
