package dev.tewheel.bundle.classpath;

import dev.tewheel.bundle.cuda.CudaVariant;
import dev.tewheel.bundle.cuda.CudaVariantChoice;
import dev.tewheel.bundle.layout.BundleFiles;
import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.layout.WheelLibPaths;
import java.io.FileNotFoundException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

/**
 * A wheel_lib on the class path under a resource folder ({@link Layout#RESOURCE_FOLDER} unless configured), as
 * te:jar-wheel-lib packs it: the cu12 and cu13 classifier jars of one TE release each hold one, read from its own
 * jar and never mixed with another's, its CUDA variant from the jar's {@link Layout#CUDA_MAJOR_ATTRIBUTE}, else from
 * its TE library ({@link CudaVariant}).
 *
 * @param where the jar (or folder) it is in
 * @param files its files, read from that jar only
 * @param variant its CUDA major, when known
 * @param variantSource where that came from
 */
public record FoundBundle(String where, BundleFiles files, Optional<Integer> variant, String variantSource)
    implements CudaVariantChoice.Candidate {
  /** Every bundle whose manifest is under {@code folder}, in class-path order, each once. */
  public static List<FoundBundle> find(ClassLoader loader, String folder) throws IOException {
    Map<String, FoundBundle> found = new LinkedHashMap<>();
    for (URL url : Collections.list(loader.getResources(folder + "/" + Layout.MANIFEST))) {
      found.computeIfAbsent(url.toString(), u -> of(url, folder));
    }
    return List.copyOf(found.values());
  }

  private static FoundBundle of(URL manifest, String folder) {
    try {
      if (manifest.getProtocol().equals("jar")) {
        JarURLConnection connection = (JarURLConnection) manifest.openConnection();
        connection.setUseCaches(false);
        URL jarUrl = connection.getJarFileURL();
        if (jarUrl.getProtocol().equals("file")) {
          Path jar = Path.of(jarUrl.toURI());
          String attribute;
          try (JarFile file = new JarFile(jar.toFile(), false)) {
            java.util.jar.Manifest mf = file.getManifest();
            attribute = mf == null ? null : mf.getMainAttributes().getValue(Layout.CUDA_MAJOR_ATTRIBUTE);
          }
          return withVariant(jar.toString(), name -> open(jar, folder + "/" + name), attribute,
              "the jar's " + Layout.CUDA_MAJOR_ATTRIBUTE);
        }
      } else if (manifest.getProtocol().equals("file")) {
        Path dir = Path.of(manifest.toURI()).getParent();
        BundleFiles files = name -> {
          Path file = WheelLibPaths.inside(dir, name);
          return file == null || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) ? null
              : Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS);
        };
        return withVariant(dir.toString(), files, null, null);
      }
    } catch (IOException | URISyntaxException | ClassCastException | IllegalArgumentException e) {
      // read through the URL below
    }
    String base = manifest.toString().substring(0, manifest.toString().length() - Layout.MANIFEST.length());
    BundleFiles files = name -> {
      try {
        return URI.create(base + name).toURL().openStream();
      } catch (FileNotFoundException | IllegalArgumentException e) {
        return null;
      }
    };
    return withVariant(base, files, null, null);
  }

  /** The bundle with its variant: {@code attribute} when it is one, else what its TE library NEEDS. */
  private static FoundBundle withVariant(String where, BundleFiles files, String attribute, String attributeSource) {
    CudaVariant variant = CudaVariant.of(where, files, attribute, attributeSource);
    return new FoundBundle(where, files, variant.major(), variant.source());
  }

  /** A jar entry's stream that closes its jar with it; null when the jar lacks it. */
  private static InputStream open(Path jar, String entry) throws IOException {
    JarFile file = new JarFile(jar.toFile(), false);
    ZipEntry found = file.getEntry(entry);
    if (found == null || found.isDirectory()) {
      file.close();
      return null;
    }
    return new FilterInputStream(file.getInputStream(found)) {
      @Override
      public void close() throws IOException {
        try (file) {
          super.close();
        }
      }
    };
  }
}
