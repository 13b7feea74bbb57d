/** Errors raised while reading a VCF. Every one names the file and, where it applies, the line. */

export class VcfParseError extends Error {
  constructor(
    readonly file: string,
    /** 1-based line number in the decompressed text; 0 when the problem is not on a line (I/O, gzip). */
    readonly line: number,
    readonly reason: string,
  ) {
    super(line > 0 ? `${file}:${line}: ${reason}` : `${file}: ${reason}`);
    this.name = 'VcfParseError';
  }
}

/** The assembly could not be determined from the header and none was given: ask the user. */
export class AssemblyRequiredError extends Error {
  constructor(readonly file: string) {
    super(`${file}: the VCF header does not say which genome assembly it uses (no contig lengths or ##reference); choose GRCh37 or GRCh38`);
    this.name = 'AssemblyRequiredError';
  }
}

/** The sample asked for is not in the file. */
export class UnknownSampleError extends Error {
  constructor(
    readonly file: string,
    readonly sample: string,
    readonly samples: readonly string[],
  ) {
    super(
      samples.length === 0
        ? `${file}: sample "${sample}" was requested but the VCF has no sample columns`
        : `${file}: sample "${sample}" is not in the VCF; samples: ${samples.join(', ')}`,
    );
    this.name = 'UnknownSampleError';
  }
}
