/** vnu-jar's main export is the path of the Nu Html Checker's vnu.jar. */
declare module 'vnu-jar' {
  const vnuJarPath: string;
  export default vnuJarPath;
}
